package rest

import (
	"net/http"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// inheritedByRoute: GET /api/role/:role/inherited_by, the roles that
// inherit from role directly (the reverse of GET /api/role/:role/inherits),
// paged like every list. What deleting a role takes with it includes these
// links; the admin console names them before it asks.
func inheritedByRoute() route {
	return route{
		method: http.MethodGet, path: "/api/role/:role/inherited_by", action: "get_children",
		params: []param{{"role", "role"}}, list: true, query: []string{"prefix"},
		resource: func(call *request) string { return "role:" + call.args[0] },
		stream: func(call *request, w *listWriter) error {
			return withPrefix(call, stringKey, func(win rbac.ListWindow, fn func([]string) error) error {
				return call.cl.EachChild(call.ctx, call.args[0], win, fn)
			}, eachName(w, asRole))
		},
	}
}
