package authz

import (
	"fmt"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
)

// Guards for the host's own routes: one family on Authz, RequirePermission,
// RequireAnyPermission, RequireAllPermissions and RequireRole, each taking
// options (scope, client, refusal body, a host predicate). They check under
// the host client (Config.ClientKey, AUTH_CLIENT_KEY) unless ForClient
// names another. The user comes from Config.Resolver, else from the login
// session. No user: 401. Not allowed: 403. Store, scope function,
// predicate (or resolver) unable to decide: 503. Never allow on an error.
//
// They panic at registration when the guard cannot work (no host client
// key, an invalid name, conflicting options), as gin does for a route it
// cannot register: the mistake stops the program where the route is
// registered instead of refusing requests later.

// GuardOption adjusts one guard: ScopeFromParam, ScopeFromQuery,
// ScopeFunc, ForClient, OnRefusal, OrIf, AndIf.
type GuardOption func(*guardSpec)

// guardSpec is what the options of one guard say, before it is compiled.
type guardSpec struct {
	cfg    middleware.GuardConfig
	client *Client
	err    error // the first conflicting option, reported at registration
}

// ErrResourceNotFound, returned (possibly wrapped) by a ScopeFunc function
// or an OrIf/AndIf predicate, makes the guard answer 404 instead of 503.
var ErrResourceNotFound = middleware.ErrResourceNotFound

// Refusal and RefusalFunc are the refusal hook's types; see OnRefusal.
type (
	Refusal     = middleware.Refusal
	RefusalFunc = middleware.RefusalFunc
)

// OnRefusal lets the host write a guard's refusal bodies (400, 401, 403,
// 404, 503) in its own error shape; rolegate still decides the status.
// Config.OnRefusal sets it for every guard; this option overrides it for
// one.
func OnRefusal(fn RefusalFunc) GuardOption {
	return func(s *guardSpec) { s.cfg.OnRefusal = fn }
}

// ScopeFromParam makes the guard check in the scope named by the URL
// parameter name (":org" in "/orgs/:org/notes"): global memberships and
// those in that scope count. With an empty parameter the requirement
// refuses (403 unless OrIf admits). A value not in Unicode NFC is refused with 400 (Refusal.Status
// 400; by default the error envelope with "scope is not in Unicode
// normalization form C"): "café" sent decomposed would otherwise be
// checked as the stored "café" while the handler's c.Param holds other
// bytes. So a handler behind the guard reads the very scope that was
// checked.
//
// A route parameter only names a scope; it does not prove that the
// resource the route acts on belongs to it. When the handler loads a
// resource by another parameter (":id"), take the scope from the resource
// with ScopeFunc.
func ScopeFromParam(name string) GuardOption {
	return scope(func(c *gin.Context) (string, error) { return c.Param(name), nil })
}

// ScopeFromQuery is ScopeFromParam for a query parameter.
func ScopeFromQuery(name string) GuardOption {
	return scope(func(c *gin.Context) (string, error) { return c.Query(name), nil })
}

// ScopeFunc makes the guard check in the scope fn returns, typically the
// scope of the resource the request acts on, loaded by fn:
//
//	authz.ScopeFunc(func(c *gin.Context) (string, error) {
//		n, ok := notes.get(c.Param("id"))
//		if !ok || n.Org != c.Param("org") {
//			return "", authz.ErrResourceNotFound // 404
//		}
//		return n.Org, nil
//	})
//
// fn runs after the user is known (an anonymous request gets 401 and never
// reaches it). An error refuses the request: ErrResourceNotFound (possibly
// wrapped) with 404, any other with 503 (fail closed). fn may also answer
// the request itself (c.AbortWithStatusJSON(http.StatusNotFound, ...)):
// the guard then stops and writes nothing more. As with ScopeFromParam, an
// empty scope is 403 and one not in NFC is 400. fn may store what it
// loaded with c.Set for the handler.
func ScopeFunc(fn func(c *gin.Context) (string, error)) GuardOption {
	return scope(fn)
}

func scope(fn func(c *gin.Context) (string, error)) GuardOption {
	return func(s *guardSpec) {
		if s.cfg.Scope != nil {
			s.fail("more than one scope option")
		}
		s.cfg.Scope = fn
	}
}

// ForClient makes the guard check under cl's key instead of the host
// client's (AUTH_CLIENT_KEY); a guard with it needs no host client key.
func ForClient(cl *Client) GuardOption {
	return func(s *guardSpec) {
		if cl == nil {
			s.fail("ForClient(nil)")
		}
		s.client = cl
	}
}

// OrIf admits the request when pred holds for the resolved user, or else
// by the guard's permissions or role: "the author, or a holder of
// notes.delete". The requirement is checked first (from the decision
// cache); pred is asked only when it refuses. pred's error refuses the
// request with 503, like a store failure; ErrResourceNotFound with 404;
// a pred that answers the request itself (c.AbortWithStatusJSON) stops
// the guard. The decision log and the observer record which branch
// decided ("permission" or "predicate"). At most one OrIf or AndIf per
// guard.
func OrIf(pred func(c *gin.Context, user string) (bool, error)) GuardOption {
	return predicate(pred, true)
}

// AndIf admits the request only when both the guard's requirement and
// pred hold; pred is asked only when the requirement admits. Errors as
// for OrIf.
func AndIf(pred func(c *gin.Context, user string) (bool, error)) GuardOption {
	return predicate(pred, false)
}

func predicate(pred middleware.Predicate, or bool) GuardOption {
	return func(s *guardSpec) {
		switch {
		case pred == nil:
			s.fail("nil predicate")
		case s.cfg.OrIf != nil || s.cfg.AndIf != nil:
			s.fail("more than one OrIf or AndIf")
		case or:
			s.cfg.OrIf = pred
		default:
			s.cfg.AndIf = pred
		}
	}
}

func (s *guardSpec) fail(msg string) {
	if s.err == nil {
		s.err = fmt.Errorf("%w: %s", middleware.ErrInvalidGuardConfig, msg)
	}
}

// RequirePermission admits users holding permission p. It panics when no
// host client key is configured (ErrNoClientKey) and ForClient is not
// given, or p is not a valid name.
func (az *Authz) RequirePermission(p string, opts ...GuardOption) gin.HandlerFunc {
	return az.guard(middleware.GuardConfig{AnyPermissions: []string{p}}, opts)
}

// RequireAnyPermission admits users holding at least one of ps.
func (az *Authz) RequireAnyPermission(ps []string, opts ...GuardOption) gin.HandlerFunc {
	return az.guard(middleware.GuardConfig{AnyPermissions: append([]string{}, ps...)}, opts)
}

// RequireAllPermissions admits users holding every one of ps.
func (az *Authz) RequireAllPermissions(ps []string, opts ...GuardOption) gin.HandlerFunc {
	return az.guard(middleware.GuardConfig{AllPermissions: append([]string{}, ps...)}, opts)
}

// RequireRole admits members of role.
func (az *Authz) RequireRole(role string, opts ...GuardOption) gin.HandlerFunc {
	if role == "" {
		panic("authz: guard: " + errEmptyRole.Error())
	}
	return az.guard(middleware.GuardConfig{Role: role}, opts)
}

// guard compiles one guard with the configured resolver, refusal hook,
// logger and observer, then opts; it panics on a programmer's mistake.
func (az *Authz) guard(cfg middleware.GuardConfig, opts []GuardOption) gin.HandlerFunc {
	s := guardSpec{cfg: cfg}
	s.cfg.OnRefusal = az.cfg.OnRefusal
	for _, o := range opts {
		o(&s)
	}
	if s.err != nil {
		panic("authz: guard: " + s.err.Error())
	}
	switch {
	case s.client != nil:
		s.cfg.Checker = s.client
	case az.host != nil:
		s.cfg.Checker = az.host
	default:
		panic("authz: guard: " + ErrNoClientKey.Error())
	}
	s.cfg.Resolver = az.resolver
	if az.noResolver && az.warnedNoUser.CompareAndSwap(false, true) {
		az.log.Warn("guards have no way to find the user, so every guarded request is refused with 401: set Config.Resolver (your app's own authentication) or configure a login provider (AUTH_OAUTH_PROVIDERS)")
	}
	s.cfg.Logger = az.log
	s.cfg.Observer = az.guardObserver(s.cfg.Checker)
	h, err := middleware.NewGuard(s.cfg)
	if err != nil {
		panic("authz: guard: " + err.Error())
	}
	return h
}

// Resolver is the resolver the guards use, for hosts composing their own.
func (az *Authz) Resolver() middleware.Resolver { return az.resolver }

var errEmptyRole = fmt.Errorf("%w: empty role", middleware.ErrInvalidGuardConfig)
