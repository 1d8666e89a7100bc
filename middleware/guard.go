package middleware

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"
)

// Checker answers authorization questions for one client (authz's per-client
// handle satisfies it). Both methods must return an error, never false, when
// they cannot decide, so that guards fail closed with 503.
type Checker interface {
	UserHasPermission(ctx context.Context, user, permission string) (bool, error)
	UserHasRole(ctx context.Context, user, role string) (bool, error)
}

// UserInterner is an optional interface of a Checker: it returns a pointer
// to a string holding user that stays valid, such as the name inside a
// cache entry, or nil. Guards store that pointer for UserFrom instead of
// the string itself: a pointer fits in an interface without a copy, a
// string does not, so an allowed request costs one allocation less.
type UserInterner interface {
	InternUser(user string) *string
}

// ScopedChecker is the Checker of guards that check in a scope
// (GuardConfig.Scope): the same questions, answered for the user's global
// memberships and those in scope.
type ScopedChecker interface {
	UserHasPermissionIn(ctx context.Context, scope, user, permission string) (bool, error)
	UserHasRoleIn(ctx context.Context, scope, user, role string) (bool, error)
}

// ErrInvalidGuardConfig wraps every error NewGuard returns.
var ErrInvalidGuardConfig = errors.New("invalid guard config")

// GuardConfig describes one guard. Exactly one of AnyPermissions,
// AllPermissions and Role must be set.
type GuardConfig struct {
	// Checker answers the permission and role questions; required.
	Checker Checker
	// Resolver finds the user of the request; required.
	Resolver Resolver
	// AnyPermissions admits a user holding at least one of these.
	AnyPermissions []string
	// AllPermissions admits a user holding every one of these.
	AllPermissions []string
	// Role admits a user who is a member of this role.
	Role string
	// Scope, when set, gives the scope to check in from the request (a
	// URL parameter, say); the Checker must then be a ScopedChecker. An
	// empty scope refuses the request (403): a scoped route never falls
	// back to a check without scope.
	Scope func(c *gin.Context) string
	// Logger, when set, gets a debug record of every refusal with the
	// missing permission or role (and the user: never at a higher level).
	Logger *slog.Logger
	// OnRefusal, when set, writes the body of every refusal (401, 403,
	// 503) in the host's own error shape; the guard still decides the
	// status. Nil: the error envelope.
	OnRefusal RefusalFunc
	// Observer, when set, sees every decision (metrics, a decision log).
	Observer GuardObserver
}

// GuardOption adjusts one guard's configuration; the guard constructors
// apply options after filling in the checker and resolver, so an option
// may also wrap them.
type GuardOption func(*GuardConfig)

// OnRefusal is the GuardOption setting GuardConfig.OnRefusal.
func OnRefusal(fn RefusalFunc) GuardOption {
	return func(cfg *GuardConfig) { cfg.OnRefusal = fn }
}

// requirement is what a compiled guard checks.
type requirement uint8

const (
	requireAny requirement = iota + 1
	requireAll
	requireRole
)

// guard is a GuardConfig compiled and validated, so that the request path
// only calls the resolver and the checker.
type guard struct {
	checker  Checker
	intern   UserInterner // nil when the checker has none
	resolver Resolver
	refuse   RefusalFunc // nil: the error envelope
	req      requirement
	names    []string // permissions, or the one role
	scope    func(c *gin.Context) string
	scoped   ScopedChecker // set with scope
	log      *slog.Logger
	obs      GuardObserver // nil: nobody watches
}

// Fixed refusal details: they never include the user, the resolver's error
// text (which may carry token details) or the required names.
const (
	detailNoUser        = "authentication required"
	detailAuthnDown     = "authentication unavailable"
	detailAuthzDown     = "authorization unavailable"
	detailNotPermitted  = "insufficient permissions"
	messageUnavailable  = "Service Unavailable"
	messageForbidden    = "Forbidden"
	messageUnauthorized = "Unauthorized"
)

// NewGuard validates cfg and returns the guard middleware. Per request: the
// resolver finds the user (401 when there is none or it fails, 503 when it
// returns ErrResolverUnavailable); the checker decides (503 on any error,
// never allowing; 403 when not allowed); an allowed user is stored for
// UserFrom and the chain continues. Every refusal uses the error envelope.
func NewGuard(cfg GuardConfig) (gin.HandlerFunc, error) {
	g, err := compileGuard(cfg)
	if err != nil {
		return nil, err
	}
	return g.serve, nil
}

func compileGuard(cfg GuardConfig) (*guard, error) {
	if cfg.Checker == nil {
		return nil, fmt.Errorf("%w: nil Checker", ErrInvalidGuardConfig)
	}
	if cfg.Resolver == nil {
		return nil, fmt.Errorf("%w: nil Resolver", ErrInvalidGuardConfig)
	}
	g := &guard{checker: cfg.Checker, resolver: cfg.Resolver, refuse: cfg.OnRefusal, scope: cfg.Scope, log: cfg.Logger, obs: cfg.Observer}
	g.intern, _ = cfg.Checker.(UserInterner)
	if g.scope != nil {
		var ok bool
		if g.scoped, ok = cfg.Checker.(ScopedChecker); !ok {
			return nil, fmt.Errorf("%w: Scope needs a Checker that is a ScopedChecker", ErrInvalidGuardConfig)
		}
	}
	set := 0
	if cfg.AnyPermissions != nil {
		set++
		g.req, g.names = requireAny, cfg.AnyPermissions
	}
	if cfg.AllPermissions != nil {
		set++
		g.req, g.names = requireAll, cfg.AllPermissions
	}
	if cfg.Role != "" {
		set++
		g.req, g.names = requireRole, []string{cfg.Role}
	}
	if set != 1 {
		return nil, fmt.Errorf("%w: exactly one of AnyPermissions, AllPermissions and Role must be set (%d are)", ErrInvalidGuardConfig, set)
	}
	if len(g.names) == 0 {
		// An empty list is set but requires nothing: "any of none" would
		// refuse everyone and "all of none" admit everyone.
		return nil, fmt.Errorf("%w: empty permission list", ErrInvalidGuardConfig)
	}
	// Copy so that a caller mutating its slice later cannot change a live
	// guard; in NFC, as every name is stored.
	names := make([]string, len(g.names))
	for i, n := range g.names {
		names[i] = NormalizeName(n)
		if !ValidName(names[i]) {
			return nil, fmt.Errorf("%w: invalid name %q", ErrInvalidGuardConfig, n)
		}
	}
	g.names = names
	return g, nil
}

func (g *guard) serve(c *gin.Context) {
	user, err := g.resolver(c)
	// The resolver's name (a header, a login's user name) may be in any
	// normalisation form; the store's names are NFC. Free for an NFC name.
	user = NormalizeName(user)
	if err != nil || user == "" {
		if errors.Is(err, ErrResolverUnavailable) {
			g.observe(c, GuardUnavailable, "", "")
			g.fail(c, http.StatusServiceUnavailable, messageUnavailable, detailAuthnDown)
			return
		}
		g.observe(c, GuardUnauthenticated, "", "")
		g.fail(c, http.StatusUnauthorized, messageUnauthorized, detailNoUser)
		return
	}
	var allowed bool
	scope := ""
	if g.scope != nil {
		if scope = g.scope(c); scope != "" {
			allowed, err = g.allowsIn(c.Request.Context(), scope, user)
		}
	} else {
		allowed, err = g.allows(c.Request.Context(), user)
	}
	if err != nil {
		g.observe(c, GuardUnavailable, user, scope)
		g.fail(c, http.StatusServiceUnavailable, messageUnavailable, detailAuthzDown)
		return
	}
	if !allowed {
		g.observe(c, GuardDenied, user, scope)
		// Enabled first: the attributes would cost allocations on every
		// refusal even with debug off.
		if g.log != nil && g.log.Enabled(c.Request.Context(), slog.LevelDebug) {
			g.log.LogAttrs(c.Request.Context(), slog.LevelDebug, "guard refused",
				slog.String("user", user), slog.Any("missing", g.names),
				slog.String("requirement", g.req.String()), slog.String("scope", scope))
		}
		g.fail(c, http.StatusForbidden, messageForbidden, detailNotPermitted)
		return
	}
	g.observe(c, GuardAllowed, user, scope)
	if g.intern != nil {
		if p := g.intern.InternUser(user); p != nil && *p == user {
			c.Set(userCtx, p)
			c.Next()
			return
		}
	}
	c.Set(userCtx, user)
	c.Next()
}

// observe tells the observer, if any, how the request was decided.
func (g *guard) observe(c *gin.Context, o GuardOutcome, user, scope string) {
	if g.obs != nil {
		g.obs.GuardDecided(c, GuardDecision{Outcome: o, User: user, Scope: scope,
			Role: g.req == requireRole, All: g.req == requireAll, Names: g.names})
	}
}

// allows evaluates the requirement in order, stopping at the first answer
// that settles it. Any error settles it as an error: the caller refuses.
func (g *guard) allows(ctx context.Context, user string) (bool, error) {
	switch g.req {
	case requireRole:
		return g.checker.UserHasRole(ctx, user, g.names[0])
	case requireAny:
		for _, p := range g.names {
			ok, err := g.checker.UserHasPermission(ctx, user, p)
			if err != nil || ok {
				return ok && err == nil, err
			}
		}
		return false, nil
	case requireAll:
		for _, p := range g.names {
			ok, err := g.checker.UserHasPermission(ctx, user, p)
			if err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	}
	// Unreachable for a compiled guard; refuse rather than allow.
	return false, errors.New("guard: no requirement")
}

// allowsIn is allows in a scope.
func (g *guard) allowsIn(ctx context.Context, scope, user string) (bool, error) {
	switch g.req {
	case requireRole:
		return g.scoped.UserHasRoleIn(ctx, scope, user, g.names[0])
	case requireAny:
		for _, p := range g.names {
			ok, err := g.scoped.UserHasPermissionIn(ctx, scope, user, p)
			if err != nil || ok {
				return ok && err == nil, err
			}
		}
		return false, nil
	case requireAll:
		for _, p := range g.names {
			ok, err := g.scoped.UserHasPermissionIn(ctx, scope, user, p)
			if err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	}
	return false, errors.New("guard: no requirement")
}

func (r requirement) String() string {
	switch r {
	case requireAny:
		return "any permission of"
	case requireAll:
		return "all permissions of"
	case requireRole:
		return "role"
	}
	return "none"
}

// The Require... constructors follow gin's own shape for a programmer's
// mistake at registration (r.GET with a conflicting path, cors.New with a
// bad config): they panic with ErrInvalidGuardConfig, so a misconfigured
// guard stops the program at startup instead of refusing every request
// later. NewGuard returns the same mistakes as an error, for guards built
// from data.

// RequirePermission returns a guard admitting users who hold permission p.
func RequirePermission(ch Checker, r Resolver, p string, opts ...GuardOption) gin.HandlerFunc {
	return mustGuard(GuardConfig{Checker: ch, Resolver: r, AnyPermissions: []string{p}}, opts)
}

// RequireAnyPermission returns a guard admitting users who hold at least one
// of ps.
func RequireAnyPermission(ch Checker, r Resolver, ps []string, opts ...GuardOption) gin.HandlerFunc {
	return mustGuard(GuardConfig{Checker: ch, Resolver: r, AnyPermissions: nonNil(ps)}, opts)
}

// RequireAllPermissions returns a guard admitting users who hold every one
// of ps.
func RequireAllPermissions(ch Checker, r Resolver, ps []string, opts ...GuardOption) gin.HandlerFunc {
	return mustGuard(GuardConfig{Checker: ch, Resolver: r, AllPermissions: nonNil(ps)}, opts)
}

// RequireRole returns a guard admitting members of role.
func RequireRole(ch Checker, r Resolver, role string, opts ...GuardOption) gin.HandlerFunc {
	if role == "" {
		panic(fmt.Errorf("%w: empty role", ErrInvalidGuardConfig))
	}
	return mustGuard(GuardConfig{Checker: ch, Resolver: r, Role: role}, opts)
}

func mustGuard(cfg GuardConfig, opts []GuardOption) gin.HandlerFunc {
	for _, o := range opts {
		o(&cfg)
	}
	h, err := NewGuard(cfg)
	if err != nil {
		panic(err)
	}
	return h
}

// nonNil turns a call with no permissions into an empty, non-nil list, so
// that NewGuard reports "empty permission list" rather than "nothing set".
func nonNil(ps []string) []string {
	if ps == nil {
		return []string{}
	}
	return ps
}
