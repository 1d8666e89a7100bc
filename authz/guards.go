package authz

import (
	"fmt"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
)

// Guards for the host's own routes. The Authz guards check under the host
// client (Config.ClientKey, AUTH_CLIENT_KEY); a Client's guards check under
// its own key. The user comes from Config.Resolver, else from the login
// session. No user: 401. Not allowed: 403. Store (or resolver) unable to
// decide with nothing fresh cached: 503. Never allow on an error.
//
// One shape everywhere, gin's: the Require... constructors panic at
// registration when the guard cannot work (no host client key, an invalid
// name), so the mistake stops the program where the route is registered
// instead of refusing requests later. NewGuard returns the same mistakes
// as an error, for guards built from data.

// GuardOption adjusts one guard (OnRefusal, ...). Options run after the
// guard's checker, resolver and the Config's refusal hook are filled in,
// so an option may replace or wrap any of them.
type GuardOption = middleware.GuardOption

// Refusal and RefusalFunc are the refusal hook's types; see OnRefusal.
type (
	Refusal     = middleware.Refusal
	RefusalFunc = middleware.RefusalFunc
)

// OnRefusal lets the host write a guard's 401, 403 and 503 bodies in its
// own error shape; rolegate still decides the status. Config.OnRefusal
// sets it for every guard; this option overrides it for one.
func OnRefusal(fn RefusalFunc) GuardOption { return middleware.OnRefusal(fn) }

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

// RequirePermission admits users holding permission p under the host
// client. It panics when no host client key is configured (ErrNoClientKey)
// or p is not a valid name.
func (az *Authz) RequirePermission(p string, opts ...GuardOption) gin.HandlerFunc {
	return mustGuard(az.NewGuard(middleware.GuardConfig{AnyPermissions: []string{p}}, opts...))
}

// RequireAnyPermission admits users holding at least one of ps.
func (az *Authz) RequireAnyPermission(ps []string, opts ...GuardOption) gin.HandlerFunc {
	return mustGuard(az.NewGuard(middleware.GuardConfig{AnyPermissions: nonNil(ps)}, opts...))
}

// RequireAllPermissions admits users holding every one of ps.
func (az *Authz) RequireAllPermissions(ps []string, opts ...GuardOption) gin.HandlerFunc {
	return mustGuard(az.NewGuard(middleware.GuardConfig{AllPermissions: nonNil(ps)}, opts...))
}

// RequireRole admits members of role.
func (az *Authz) RequireRole(role string, opts ...GuardOption) gin.HandlerFunc {
	if role == "" {
		return mustGuard(nil, errEmptyRole)
	}
	return mustGuard(az.NewGuard(middleware.GuardConfig{Role: role}, opts...))
}

// NewGuard builds a guard under the host client with the configured
// resolver and refusal hook; cfg's own Checker, Resolver and OnRefusal,
// when set, win, and opts apply last. ErrNoClientKey when cfg has no
// Checker and no host client key is configured.
func (az *Authz) NewGuard(cfg middleware.GuardConfig, opts ...GuardOption) (gin.HandlerFunc, error) {
	if cfg.Checker == nil {
		if az.host == nil {
			return nil, ErrNoClientKey
		}
		cfg.Checker = az.host
	}
	if cfg.Resolver == nil {
		cfg.Resolver = az.resolver
		if az.noResolver && az.warnedNoUser.CompareAndSwap(false, true) {
			az.log.Warn("guards have no way to find the user, so every guarded request is refused with 401: set Config.Resolver (your app's own authentication) or configure a login provider (AUTH_OAUTH_PROVIDERS)")
		}
	}
	if cfg.OnRefusal == nil {
		cfg.OnRefusal = az.cfg.OnRefusal
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.Logger == nil {
		cfg.Logger = az.log
	}
	if cfg.Observer == nil {
		cfg.Observer = az.guardObserver(cfg.Checker)
	}
	return middleware.NewGuard(cfg)
}

// RequirePermission admits users holding permission p under this client's
// key; it panics when p is not a valid name.
func (c *Client) RequirePermission(p string, opts ...GuardOption) gin.HandlerFunc {
	return mustGuard(c.NewGuard(middleware.GuardConfig{AnyPermissions: []string{p}}, opts...))
}

// RequireAnyPermission admits users holding at least one of ps under this
// client's key.
func (c *Client) RequireAnyPermission(ps []string, opts ...GuardOption) gin.HandlerFunc {
	return mustGuard(c.NewGuard(middleware.GuardConfig{AnyPermissions: nonNil(ps)}, opts...))
}

// RequireAllPermissions admits users holding every one of ps under this
// client's key.
func (c *Client) RequireAllPermissions(ps []string, opts ...GuardOption) gin.HandlerFunc {
	return mustGuard(c.NewGuard(middleware.GuardConfig{AllPermissions: nonNil(ps)}, opts...))
}

// RequireRole admits members of role under this client's key.
func (c *Client) RequireRole(role string, opts ...GuardOption) gin.HandlerFunc {
	if role == "" {
		return mustGuard(nil, errEmptyRole)
	}
	return mustGuard(c.NewGuard(middleware.GuardConfig{Role: role}, opts...))
}

// NewGuard is Authz.NewGuard checking under this client's key.
func (c *Client) NewGuard(cfg middleware.GuardConfig, opts ...GuardOption) (gin.HandlerFunc, error) {
	if cfg.Checker == nil {
		cfg.Checker = c
	}
	return c.az.NewGuard(cfg, opts...)
}

// Resolver is the resolver the guards use, for hosts composing their own.
func (az *Authz) Resolver() middleware.Resolver { return az.resolver }

func mustGuard(h gin.HandlerFunc, err error) gin.HandlerFunc {
	if err != nil {
		panic("authz: guard: " + err.Error())
	}
	return h
}

func nonNil(ps []string) []string {
	if ps == nil {
		return []string{}
	}
	return ps
}

var errEmptyRole = fmt.Errorf("%w: empty role", middleware.ErrInvalidGuardConfig)
