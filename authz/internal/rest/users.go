package rest

import (
	"net/http"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// usersRoute: GET /api/users, the users that hold at least one membership
// (global or scoped), sorted, [{"user"}], paged by ?limit&after and
// narrowed by ?prefix like the other lists.
func usersRoute() route {
	return route{
		method: http.MethodGet, path: "/api/users", action: "users", list: true, query: []string{"prefix"},
		resource: func(*request) string { return "users" },
		stream: func(call *request, w *listWriter) error {
			return withPrefix(call, stringKey, func(win rbac.ListWindow, fn func([]string) error) error {
				return call.cl.EachUser(call.ctx, win, fn)
			}, eachName(w, asUser))
		},
	}
}
