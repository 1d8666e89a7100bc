package middleware

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"
	"golang.org/x/text/unicode/norm"
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

// ErrResourceNotFound is what a guard's Scope function or predicate
// returns (possibly wrapped) when the resource the request names does not
// exist; the guard answers 404 (through OnRefusal when set) instead of the
// 503 of any other error.
var ErrResourceNotFound = errors.New("resource not found")

// Predicate is a host's own rule beside the guard's requirement (GuardConfig
// OrIf and AndIf), such as "the user wrote this note". An error refuses the
// request with 503, as a checker's does; ErrResourceNotFound with 404. A
// predicate that aborts the request itself (c.AbortWithStatusJSON) has
// answered it: the guard stops and writes nothing more.
type Predicate func(c *gin.Context, user string) (bool, error)

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
	// URL parameter, a loaded resource); the Checker must then be a
	// ScopedChecker. It runs after the user is known. With an empty scope
	// the requirement refuses (403 unless OrIf admits): a scoped route
	// never falls back to a check without scope. A scope that is not in Unicode NFC is refused
	// with 400, so that the handler never serves another spelling of the
	// scope the guard checked. An error refuses with 503, or 404 when it
	// is ErrResourceNotFound; a Scope function that aborts the request
	// itself has answered it, and the guard writes nothing more.
	Scope func(c *gin.Context) (string, error)
	// OrIf, when set, admits a user for whom it holds even without the
	// requirement; it is asked only when the requirement refuses.
	OrIf Predicate
	// AndIf, when set, must hold as well as the requirement; it is asked
	// only when the requirement admits. At most one of OrIf and AndIf.
	AndIf Predicate
	// Logger, when set, gets a debug record of every refusal with the
	// missing permission or role (and the user: never at a higher level).
	Logger *slog.Logger
	// OnRefusal, when set, writes the body of every refusal (400, 401,
	// 403, 404, 503) in the host's own error shape; the guard still
	// decides the status. Nil: the error envelope.
	OnRefusal RefusalFunc
	// Observer, when set, sees every decision (metrics, a decision log).
	Observer GuardObserver
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
	scope    func(c *gin.Context) (string, error)
	scoped   ScopedChecker // set with scope
	pred     Predicate     // OrIf or AndIf, nil without
	predOr   bool          // pred admits on its own (OrIf)
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
	detailScopeNotNFC   = "scope is not in Unicode normalization form C"
	detailNotFound      = "not found"
	messageUnavailable  = "Service Unavailable"
	messageForbidden    = "Forbidden"
	messageUnauthorized = "Unauthorized"
	messageBadRequest   = "Bad Request"
	messageNotFound     = "Not Found"
)

// NewGuard validates cfg and returns the guard middleware: the engine under
// authz's guard constructors, for a host with a Checker of its own. Per
// request: the resolver finds the user (401 when there is none or it
// fails, 503 when it returns ErrResolverUnavailable); the scope, when
// configured, is found (see GuardConfig.Scope); the checker decides (503
// on any error, never allowing; 403 when not allowed), then the predicate
// when its answer can change the outcome; an allowed user is stored for
// UserFrom and the chain continues. Every refusal uses the error envelope
// unless OnRefusal is set.
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
	switch {
	case cfg.OrIf != nil && cfg.AndIf != nil:
		return nil, fmt.Errorf("%w: at most one of OrIf and AndIf", ErrInvalidGuardConfig)
	case cfg.OrIf != nil:
		g.pred, g.predOr = cfg.OrIf, true
	case cfg.AndIf != nil:
		g.pred = cfg.AndIf
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
			g.observe(c, GuardUnavailable, DecidedByNone, "", "")
			g.fail(c, http.StatusServiceUnavailable, messageUnavailable, detailAuthnDown)
			return
		}
		g.observe(c, GuardUnauthenticated, DecidedByNone, "", "")
		g.fail(c, http.StatusUnauthorized, messageUnauthorized, detailNoUser)
		return
	}
	var allowed bool
	scope := ""
	if g.scope != nil {
		scope, err = g.scope(c)
		switch {
		case c.IsAborted():
			return // the Scope function answered the request itself
		case err != nil:
			g.refuseError(c, err, DecidedByNone, user, "")
			return
		case !norm.NFC.IsNormalString(scope):
			// The guard would check one spelling and the handler serve
			// another (c.Param holds the bytes sent).
			g.observe(c, GuardBadRequest, DecidedByNone, user, "")
			g.fail(c, http.StatusBadRequest, messageBadRequest, detailScopeNotNFC)
			return
		case scope != "":
			allowed, err = g.allowsIn(c.Request.Context(), scope, user)
		}
		// An empty scope: the requirement refuses (never a check without
		// scope); an OrIf predicate may still admit.
	} else {
		allowed, err = g.allows(c.Request.Context(), user)
	}
	by := DecidedByPermission
	if err != nil {
		g.observe(c, GuardUnavailable, by, user, scope)
		g.fail(c, http.StatusServiceUnavailable, messageUnavailable, detailAuthzDown)
		return
	}
	// The predicate is asked only when its answer can change the outcome:
	// OrIf after a refusal, AndIf after an admission.
	if g.pred != nil && allowed != g.predOr {
		by = DecidedByPredicate
		allowed, err = g.pred(c, user)
		switch {
		case c.IsAborted():
			return // the predicate answered the request itself
		case err != nil:
			g.refuseError(c, err, by, user, scope)
			return
		}
	}
	if !allowed {
		g.deny(c, by, user, scope)
		return
	}
	g.observe(c, GuardAllowed, by, user, scope)
	if g.intern != nil {
		if p := g.intern.InternUser(user); p != nil && *p == user {
			c.Set(userCtx, (*ctxString)(p))
			c.Next()
			return
		}
	}
	c.Set(userCtx, ctxString(user))
	c.Next()
}

// deny refuses a known user with 403.
func (g *guard) deny(c *gin.Context, by DecidedBy, user, scope string) {
	g.observe(c, GuardDenied, by, user, scope)
	// Enabled first: the attributes would cost allocations on every
	// refusal even with debug off.
	if g.log != nil && g.log.Enabled(c.Request.Context(), slog.LevelDebug) {
		g.log.LogAttrs(c.Request.Context(), slog.LevelDebug, "guard refused",
			slog.String("user", user), slog.Any("missing", g.names),
			slog.String("requirement", g.req.String()), slog.String("scope", scope),
			slog.String("decided_by", by.String()))
	}
	g.fail(c, http.StatusForbidden, messageForbidden, detailNotPermitted)
}

// refuseError refuses after a Scope function or a predicate failed: 404
// for ErrResourceNotFound, else 503 (fail closed).
func (g *guard) refuseError(c *gin.Context, err error, by DecidedBy, user, scope string) {
	if errors.Is(err, ErrResourceNotFound) {
		g.observe(c, GuardNotFound, by, user, scope)
		g.fail(c, http.StatusNotFound, messageNotFound, detailNotFound)
		return
	}
	g.observe(c, GuardUnavailable, by, user, scope)
	g.fail(c, http.StatusServiceUnavailable, messageUnavailable, detailAuthzDown)
}

// observe tells the observer, if any, how the request was decided.
func (g *guard) observe(c *gin.Context, o GuardOutcome, by DecidedBy, user, scope string) {
	if g.obs != nil {
		g.obs.GuardDecided(c, GuardDecision{Outcome: o, By: by, User: user, Scope: scope,
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
