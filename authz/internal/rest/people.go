package rest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
)

// The admin plane's own permissions, held in the host's namespace like any
// other permission (granted to a role, the role to a person).
const (
	// PermAdmin: every admin route of the host's namespace.
	PermAdmin = "rolegate.admin"
	// PermRead: every read route.
	PermRead = "rolegate.read"
	// PermMembers: memberships, where held, of roles whose every effective
	// permission the holder holds there too.
	PermMembers = "rolegate.members"
)

// Reserved reports whether name is one of the admin plane's permissions.
func Reserved(name string) bool {
	return name == PermAdmin || name == PermRead || name == PermMembers
}

// People lets persons use the admin plane (Config.People; nil: keys only).
type People interface {
	// Person is the user of a request that carries no client key, as the
	// host's guards find it (Config.Resolver or a login session): an error
	// wrapping middleware.ErrResolverUnavailable answers 503, any other
	// (middleware.ErrNoUser) 401.
	Person(c *gin.Context) (string, error)
	// Host is the Caller of the host's namespace: the only one a person
	// ever reaches.
	Host() Caller
}

// errCrossSite refuses a person's write sent by another site's page.
var errCrossSite = errors.New("cross-site request refused")

// authenticate is the admin plane's door: a request with a client key
// goes through ClientKeyAuth exactly as without people; with people
// enabled, one without a key is a person's.
func (a *API) authenticate(rt route) gin.HandlerFunc {
	keyAuth := a.clientKeyAuth(rt)
	if a.people == nil {
		return keyAuth
	}
	return func(c *gin.Context) {
		if carriesKey(c.Request.Header) {
			keyAuth(c)
			return
		}
		a.personAuth(c, rt)
	}
}

// carriesKey: one Authorization header, Bearer, holding a UUID v4. A
// Bearer token of another shape (a login session's) is a person's.
func carriesKey(h http.Header) bool {
	v := h["Authorization"]
	if len(v) != 1 {
		return len(v) > 1 // ambiguous: ClientKeyAuth refuses it
	}
	scheme, token, _ := strings.Cut(v[0], " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	_, err := middleware.ParseClientKey(strings.TrimLeft(token, " "))
	return err == nil
}

// personAuth finds the person of a request without a key. A write is
// first checked for another site's page having sent it: a person's
// credentials (a cookie, a header an authenticating proxy adds from its
// cookie) ride along on any request a browser sends, a key never does.
func (a *API) personAuth(c *gin.Context, rt route) {
	ctx := a.host.RequestContext(c)
	if unsafeMethod(c.Request.Method) {
		if err := sameOrigin(c.Request); err != nil {
			a.host.AuditRefusal(ctx, "", rt.action, "route:"+rt.path, refuse(fmt.Errorf("%w: %w", rbac.ErrForbidden, err)))
			middleware.Fail(c, http.StatusForbidden, "Forbidden", err.Error()+": a person's writes must come from the admin plane's own origin")
			return
		}
	}
	user, err := a.people.Person(c)
	if err == nil && (user == "" || !middleware.ValidName(user)) {
		err = middleware.ErrNoUser
	}
	if err != nil {
		if errors.Is(err, middleware.ErrResolverUnavailable) {
			middleware.Fail(c, http.StatusServiceUnavailable, "Service Unavailable", "the user resolver is unavailable")
			return
		}
		a.host.AuditRefusal(ctx, "", rt.action, "route:"+rt.path, fmt.Errorf("%w: no client key and no signed-in user", rbac.ErrInvalidClientKey))
		middleware.Fail(c, http.StatusUnauthorized, "Unauthorized", "missing bearer client key, and no signed-in user")
		return
	}
	c.Set(personKey, person(user))
	c.Next()
}

func unsafeMethod(m string) bool {
	return m != http.MethodGet && m != http.MethodHead && m != http.MethodOptions
}

// sameOrigin is the cross-origin check of Go 1.25's
// http.CrossOriginProtection (not in the Go 1.24 this module supports):
// Sec-Fetch-Site, sent by every current browser, must say same-origin
// (or none: typed by the user); without it an Origin header must name the
// request's own host; a request with neither comes from no browser.
func sameOrigin(r *http.Request) error {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "":
	case "same-origin", "none":
		return nil
	default:
		return errCrossSite
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	if u, err := url.Parse(origin); err != nil || u.Host == "" || u.Host != r.Host {
		return errCrossSite
	}
	return nil
}

// caller is the Caller of a request and, for a person's, the person.
func (a *API) caller(c *gin.Context) (Caller, string, error) {
	if user, ok := PersonFrom(c); ok {
		return a.people.Host(), user, nil
	}
	key, _ := middleware.ClientKeyFrom(c)
	cl, err := a.host.Caller(key)
	return cl, "", err
}

// delegable routes are open to a rolegate.members holder, for the roles
// and scope she may hand out (see delegated): adding and removing members,
// and reading a role's members or one membership.
func (rt route) delegable() bool {
	switch rt.action {
	case "add_membership", "del_membership", "has_membership", "get_role_members":
		return true
	}
	return false
}

// allowPerson is the first check of a person's request, before anything
// of it is read: rolegate.admin passes every route, rolegate.read every
// read; a delegable route is left to delegated (fine is true), once its
// names are checked; anything else is 403 naming what it needs.
func allowPerson(ctx context.Context, cl Caller, rt route, user string) (fine bool, err error) {
	if ok, err := cl.UserHasPermission(ctx, user, PermAdmin); err != nil || ok {
		return false, err
	}
	reads := rt.reads() // POST /api/check only reads too
	if reads {
		if ok, err := cl.UserHasPermission(ctx, user, PermRead); err != nil || ok {
			return false, err
		}
	}
	if rt.delegable() {
		return true, nil
	}
	need := PermAdmin
	if reads {
		need = PermRead + " or " + PermAdmin
	}
	return false, forbidden("%s needs %s", rt.method+" "+rt.path, need)
}

func forbidden(format string, args ...any) error {
	return refuse(fmt.Errorf("%w: "+format, append([]any{rbac.ErrForbidden}, args...)...))
}

// delegated is the check of a rolegate.members holder on a delegable
// route, in the request's scope (see mayHandOut).
func delegated(call *request, user string) error {
	scope, err := scopeParam(call)
	if err != nil {
		return err
	}
	return mayHandOut(call.ctx, call.cl, user, scope, call.args[len(call.args)-1])
}

// mayHandOut says whether user may add and remove members of role in
// scope ("": globally) as a rolegate.members holder: she holds
// rolegate.members there (a global membership of it counts everywhere;
// a global membership needs it globally), and the role holds no reserved
// permission and nothing she does not hold there herself, counting
// inherited grants. So she can never hand out, nor take away, more than
// she has. A refusal wraps rbac.ErrForbidden and names the permission.
func mayHandOut(ctx context.Context, cl Caller, user, scope, role string) error {
	where := "globally"
	if scope != "" {
		where = "in scope " + scope
	}
	holds := func(p string) (bool, error) {
		if scope == "" {
			return cl.UserHasPermission(ctx, user, p)
		}
		return cl.UserHasPermissionIn(ctx, scope, user, p)
	}
	if ok, err := holds(PermMembers); err != nil {
		return err
	} else if !ok {
		return forbidden("memberships of role %s need %s (or %s) %s", role, PermMembers, PermAdmin, where)
	}
	var denied error
	err := cl.EachEffectivePermission(ctx, role, rbac.ListWindow{}, func(page []string) error {
		for _, p := range page {
			if Reserved(p) {
				denied = forbidden("role %s holds %s, which %s never hands out", role, p, PermMembers)
				return denied
			}
			ok, err := holds(p)
			if err != nil {
				return err
			}
			if !ok {
				denied = forbidden("role %s holds %s, which you do not hold %s", role, p, where)
				return denied
			}
		}
		return nil
	})
	if denied != nil {
		return denied
	}
	return err
}
