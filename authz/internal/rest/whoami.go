package rest

import (
	"context"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
)

// whoamiRoute is GET /api/whoami, for the audit of refusals. It is open
// to whoever the admin plane lets in (a key, or any signed-in person), so
// it stands apart from the table of admin routes.
var whoamiRoute = route{method: http.MethodGet, path: "/api/whoami", action: "whoami"}

// maxGrantableRoles bounds the roles GET /api/whoami weighs for a
// delegated admin: each costs a check per permission.
const maxGrantableRoles = 1000

// Whoami is the data of GET /api/whoami: who the admin plane takes the
// caller for and what it may do, so that a console shows only that.
type Whoami struct {
	// Actor is how the audit log names the caller.
	Actor string `json:"actor"`
	// User is the person's name; empty for a key.
	User string `json:"user,omitempty"`
	// Admin and Read: rolegate.admin and rolegate.read (a key has both).
	Admin bool `json:"admin"`
	Read  bool `json:"read"`
	// Members: where the person holds rolegate.members, and in each place
	// the roles she may hand out (a role she fully holds there, holding
	// nothing reserved); Scope "" is global.
	Members []Delegation `json:"members"`
}

// Delegation is one place where a person holds rolegate.members.
type Delegation struct {
	Scope string   `json:"scope"`
	Roles []string `json:"roles"`
}

func (a *API) whoamiHandlers() []gin.HandlerFunc {
	return []gin.HandlerFunc{a.authenticate(whoamiRoute), a.whoami}
}

func (a *API) whoami(c *gin.Context) {
	rt := whoamiRoute
	ctx := a.host.RequestContext(c)
	cl, user, err := a.caller(c)
	if err != nil {
		a.fail(c, ctx, rt, nil, refuse(err))
		return
	}
	call := &request{c: c, ctx: ctx, cl: cl}
	if err := checkQuery(c, rt); err != nil {
		a.fail(c, ctx, rt, call, refuse(err))
		return
	}
	if user == "" {
		middleware.Respond(c, http.StatusOK, "ok", Whoami{Actor: cl.KeyActor(), Admin: true, Read: true, Members: []Delegation{}})
		return
	}
	w, err := whoamiOf(ctx, cl, user)
	if err != nil {
		a.fail(c, ctx, rt, call, err)
		return
	}
	middleware.Respond(c, http.StatusOK, "ok", w)
}

// whoamiOf weighs a person's admin permissions in the host's namespace.
func whoamiOf(ctx context.Context, cl Caller, user string) (Whoami, error) {
	w := Whoami{Actor: "user:" + user, User: user, Members: []Delegation{}}
	var err error
	if w.Admin, err = cl.UserHasPermission(ctx, user, PermAdmin); err != nil {
		return w, err
	}
	if w.Read, err = cl.UserHasPermission(ctx, user, PermRead); err != nil {
		return w, err
	}
	if w.Admin {
		return w, nil
	}
	var scopes []string
	if global, err := cl.UserHasPermission(ctx, user, PermMembers); err != nil {
		return w, err
	} else if global {
		scopes = append(scopes, "")
	}
	held, err := cl.ScopesOf(ctx, user, maxGrantableRoles)
	if err != nil {
		return w, err
	}
	for _, s := range held {
		ok, err := cl.UserHasPermissionIn(ctx, s, user, PermMembers)
		if err != nil {
			return w, err
		}
		if ok {
			scopes = append(scopes, s)
		}
	}
	if err != nil || len(scopes) == 0 {
		return w, err
	}
	var roles []string
	err = cl.EachRole(ctx, rbac.ListWindow{Limit: maxGrantableRoles}, func(page []rbac.Role) error {
		for _, r := range page {
			roles = append(roles, r.Role)
		}
		return nil
	})
	if err != nil {
		return w, err
	}
	for _, s := range scopes {
		d := Delegation{Scope: s, Roles: []string{}}
		for _, role := range roles {
			switch err := mayHandOut(ctx, cl, user, s, role); {
			case err == nil:
				d.Roles = append(d.Roles, role)
			case !errors.Is(err, rbac.ErrForbidden):
				return w, err
			}
		}
		w.Members = append(w.Members, d)
	}
	return w, nil
}
