package authz

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// ScopedMembership is an entry of GET /api/scoped_memberships: a
// membership that holds in one scope only.
type ScopedMembership struct {
	User  string `json:"user"`
	Role  string `json:"role"`
	Scope string `json:"scope"`
}

// restScopedMembershipsRoute: GET /api/scoped_memberships, every scoped
// membership of the calling client's namespace, in every scope, sorted by
// scope, user, role and streamed from the store window by window. The
// other list routes name one scope at a time (?scope=S); a backup, a
// policy export or an apply that removes stale memberships needs them all
// without knowing the scopes in advance.
//
// Paging: ?limit=N&after=SCOPE/USER/ROLE, the last entry of the previous
// page joined with '/' (names never hold a '/').
func restScopedMembershipsRoute() restRoute {
	return restRoute{
		method: http.MethodGet, path: "/api/scoped_memberships", action: "scoped_memberships",
		resource: func(*restCall) string { return "scoped_memberships" },
		stream: func(call *restCall, w *restListWriter) error {
			win, err := restScopedWindow(call)
			if err != nil {
				return restRefuse(err)
			}
			return storage.EachScopedMembership(call.ctx, call.cl.az.db, call.cl.scope, win,
				func(page []storage.ScopedMembership) error {
					for _, m := range page {
						if err := w.entry(ScopedMembership{User: m.User, Role: m.Role, Scope: m.Scope}); err != nil {
							return err
						}
					}
					return w.flush()
				})
		},
	}
}

// restScopedWindow reads ?limit (1 to MaxPageLimit) and ?after (the
// scope/user/role cursor, each part a valid name).
func restScopedWindow(call *restCall) (storage.ScopedWindow, error) {
	q := call.c.Request.URL.Query()
	win := storage.ScopedWindow{Window: listWindow}
	if v, ok, err := restQueryValue(q, "limit"); err != nil {
		return win, err
	} else if ok {
		if win.Limit, err = restParseLimit(v); err != nil {
			return win, err
		}
	}
	v, ok, err := restQueryValue(q, "after")
	if err != nil || !ok {
		return win, err
	}
	parts := strings.Split(v, "/")
	for i := range parts {
		parts[i] = middleware.NormalizeName(parts[i])
	}
	if len(parts) != 3 || !ValidName(parts[0]) || !ValidName(parts[1]) || !ValidName(parts[2]) {
		return win, fmt.Errorf("%w: after must be SCOPE/USER/ROLE, the last entry of the previous page", errBadRequest)
	}
	win.After = storage.ScopedMembership{Scope: parts[0], User: parts[1], Role: parts[2]}
	return win, nil
}
