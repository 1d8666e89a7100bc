package rest

import "net/http"

// inheritedByRoute: GET /api/role/:role/inherited_by, the roles that
// inherit from role directly (the reverse of GET /api/role/:role/inherits),
// paged like every list. What deleting a role takes with it includes these
// links; the admin console names them before it asks.
func inheritedByRoute() route {
	return route{
		method: http.MethodGet, path: "/api/role/:role/inherited_by", action: "get_children",
		params: []param{{"role", "role"}}, list: true,
		resource: func(call *request) string { return "role:" + call.args[0] },
		stream: func(call *request, w *listWriter) error {
			return call.cl.EachChild(call.ctx, call.args[0], call.window(), eachName(w, asRole))
		},
	}
}
