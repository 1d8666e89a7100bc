package rest

import (
	"net/http"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// usersRoute: GET /api/users, the users that hold at least one membership
// (global or scoped), sorted, [{"user"}], paged by ?limit&after and
// narrowed by ?prefix like the other lists, with X-Total-Count like GET
// /api/roles.
func usersRoute() route {
	return route{
		method: http.MethodGet, path: "/api/users", action: "users", list: true, query: []string{"prefix"},
		resource: func(*request) string { return "users" },
		stream: func(call *request, w *listWriter) error {
			if err := totalCount(call, call.cl.CountUsers); err != nil {
				return err
			}
			return withPrefix(call, stringKey, func(win rbac.ListWindow, fn func([]string) error) error {
				return call.cl.EachUser(call.ctx, win, fn)
			}, eachName(w, asUser))
		},
	}
}
