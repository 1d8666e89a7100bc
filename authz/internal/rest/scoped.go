package rest

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
)

// scopedMembershipsRoute: GET /api/scoped_memberships, every scoped
// membership of the calling client's namespace, in every scope, sorted by
// scope, user, role and streamed from the store window by window. The
// other list routes name one scope at a time (?scope=S); a backup, a
// policy export or an apply that removes stale memberships needs them all
// without knowing the scopes in advance.
//
// Paging: ?limit=N&after=SCOPE/USER/ROLE, the last entry of the previous
// page joined with '/' (names never hold a '/'). ?scope=S, ?user=U and
// ?role=R keep the memberships of that scope, user and role (any of them,
// together): the console's Members page and a user's scopes.
func scopedMembershipsRoute() route {
	return route{
		method: http.MethodGet, path: "/api/scoped_memberships", action: "scoped_memberships",
		query:    []string{"limit", "after", "scope", "user", "role"},
		resource: func(*request) string { return "scoped_memberships" },
		stream: func(call *request, w *listWriter) error {
			win, err := scopedWindow(call)
			if err != nil {
				return refuse(err)
			}
			return call.cl.EachScopedMembershipBounded(call.ctx, win, func(page []rbac.ScopedListed) error {
				for _, m := range page {
					e := scopedEntry{ScopedMembership: m.ScopedMembership, Bounds: utc(m.Bounds)}
					if !m.Bounds.IsZero() {
						e.Held = &m.Held
					}
					if err := w.entry(e); err != nil {
						return err
					}
				}
				return w.flush()
			})
		},
	}
}

// scopedWindow reads ?limit (1 to MaxPageLimit) and ?after (the
// scope/user/role cursor, each part a valid name).
func scopedWindow(call *request) (rbac.ScopedWindow, error) {
	q := call.c.Request.URL.Query()
	var win rbac.ScopedWindow
	for _, f := range []struct {
		name, kind string
		to         *string
	}{{"scope", "scope", &win.Only.Scope}, {"user", "user", &win.Only.User}, {"role", "role", &win.Only.Role}} {
		v, ok, err := queryValue(q, f.name)
		if err != nil {
			return win, err
		}
		if !ok {
			continue
		}
		v = middleware.NormalizeName(v)
		if err := rbac.CheckNames(f.kind, v); err != nil {
			return win, err
		}
		*f.to = v
	}
	if call.counting {
		return win, nil // every entry of the filter, for ?total
	}
	if v, ok, err := queryValue(q, "limit"); err != nil {
		return win, err
	} else if ok {
		if win.Limit, err = parseLimit(v); err != nil {
			return win, err
		}
	}
	v, ok, err := queryValue(q, "after")
	if err != nil || !ok {
		return win, err
	}
	parts := strings.Split(v, "/")
	for i := range parts {
		parts[i] = middleware.NormalizeName(parts[i])
	}
	if len(parts) != 3 || !middleware.ValidName(parts[0]) || !middleware.ValidName(parts[1]) || !middleware.ValidName(parts[2]) {
		return win, fmt.Errorf("%w: after must be SCOPE/USER/ROLE, the last entry of the previous page", errBadRequest)
	}
	win.After = rbac.ScopedMembership{Scope: parts[0], User: parts[1], Role: parts[2]}
	return win, nil
}
