package authz

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
)

// Guards for the host's own routes. They check under AUTH_CLIENT_KEY (the
// host client); use Client(key).RequirePermission(...) to check under
// another key. The user comes from Config.Resolver, else from the login
// session. No user: 401. Not allowed: 403. Store unreachable with nothing
// fresh cached: 503. Never allow on an error.
//
// A guard that cannot work (no AUTH_CLIENT_KEY, an invalid permission
// name) is a configuration mistake: the constructor logs it at once and the
// guard refuses every request with 500. NewGuard reports the same mistakes
// as an error, for hosts that prefer to stop at startup.

// GuardOption adjusts a guard: ScopeFromParam, ScopeFromQuery.
type GuardOption func(*middleware.GuardConfig)

// ScopeFromParam makes the guard check in the scope named by the URL
// parameter name (":org" in "/orgs/:org/notes"): global memberships and
// those in that scope count. A request whose parameter is empty is refused.
func ScopeFromParam(name string) GuardOption {
	return func(cfg *middleware.GuardConfig) {
		cfg.Scope = func(c *gin.Context) string { return c.Param(name) }
	}
}

// ScopeFromQuery is ScopeFromParam for a query parameter.
func ScopeFromQuery(name string) GuardOption {
	return func(cfg *middleware.GuardConfig) {
		cfg.Scope = func(c *gin.Context) string { return c.Query(name) }
	}
}

func withOptions(cfg middleware.GuardConfig, opts []GuardOption) middleware.GuardConfig {
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

// RequirePermission admits users holding permission p.
func (az *Authz) RequirePermission(p string, opts ...GuardOption) gin.HandlerFunc {
	return az.must(az.NewGuard(withOptions(middleware.GuardConfig{AnyPermissions: []string{p}}, opts)))
}

// RequireAnyPermission admits users holding at least one of ps.
func (az *Authz) RequireAnyPermission(ps ...string) gin.HandlerFunc {
	return az.must(az.NewGuard(middleware.GuardConfig{AnyPermissions: nonNil(ps)}))
}

// RequireAllPermissions admits users holding every one of ps.
func (az *Authz) RequireAllPermissions(ps ...string) gin.HandlerFunc {
	return az.must(az.NewGuard(middleware.GuardConfig{AllPermissions: nonNil(ps)}))
}

// RequireRole admits members of role.
func (az *Authz) RequireRole(role string, opts ...GuardOption) gin.HandlerFunc {
	return az.must(az.NewGuard(withOptions(middleware.GuardConfig{Role: role}, opts)))
}

// NewGuard builds a guard under the host client with the configured
// resolver; cfg.Checker and cfg.Resolver, when set, override them.
func (az *Authz) NewGuard(cfg middleware.GuardConfig) (gin.HandlerFunc, error) {
	if cfg.Checker == nil {
		if az.host == nil {
			return nil, errors.New("authz: guards need AUTH_CLIENT_KEY (the host app's client key)")
		}
		cfg.Checker = az.host
	}
	if cfg.Resolver == nil {
		cfg.Resolver = az.resolver
	}
	if cfg.Logger == nil {
		cfg.Logger = az.log
	}
	return middleware.NewGuard(cfg)
}

// RequirePermission is a guard checking under this client's key.
func (c *Client) RequirePermission(p string, opts ...GuardOption) (gin.HandlerFunc, error) {
	return c.az.NewGuard(withOptions(middleware.GuardConfig{Checker: c, AnyPermissions: []string{p}}, opts))
}

// Resolver is the resolver the guards use, for hosts composing their own.
func (az *Authz) Resolver() middleware.Resolver { return az.resolver }

func (az *Authz) must(h gin.HandlerFunc, err error) gin.HandlerFunc {
	if err == nil {
		return h
	}
	az.log.Error("guard misconfigured: every request it guards is refused", "error", err)
	return func(c *gin.Context) {
		middleware.Fail(c, http.StatusInternalServerError, "Internal Server Error", "guard misconfigured")
	}
}

func nonNil(ps []string) []string {
	if ps == nil {
		return []string{}
	}
	return ps
}
