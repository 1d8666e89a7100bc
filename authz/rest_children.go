package authz

import (
	"net/http"

	"github.com/rolegate/rolegate/storage"
)

// restInheritedByRoute: GET /api/role/:role/inherited_by, the roles that
// inherit from role directly (the reverse of GET /api/role/:role/inherits),
// paged like every list. What deleting a role takes with it includes these
// links; the admin console names them before it asks.
func restInheritedByRoute() restRoute {
	return restRoute{
		method: http.MethodGet, path: "/api/role/:role/inherited_by", action: "get_children",
		params: []restParam{{"role", "role"}}, list: true,
		resource: func(call *restCall) string { return "role:" + call.args[0] },
		stream: func(call *restCall, w *restListWriter) error {
			return storage.Each(call.ctx, call.cl.az.db, call.cl.scope, storage.ChildrenOfRole, "", call.args[0], call.window(),
				restEachName(w, restAsRole))
		},
	}
}
