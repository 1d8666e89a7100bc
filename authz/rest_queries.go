package authz

import (
	"net/http"

	"github.com/rolegate/rolegate/storage"
)

// restQueryRoutes: has_permission and the list endpoints of users, roles
// and permissions.
func restQueryRoutes() []restRoute {
	user := []restParam{{"user", "user"}}
	role := []restParam{{"role", "role"}}
	perm := []restParam{{"name", "permission"}}
	userResource := func(call *restCall) string { return "user:" + call.cl.scope.AuditName(call.args[0]) }
	roleResource := func(call *restCall) string { return "role:" + call.args[0] }
	permResource := func(call *restCall) string { return "permission:" + call.cl.scope.AuditName(call.args[0]) }
	list := func(path, action string, params []restParam, resource func(*restCall) string,
		each func(*restCall, *restListWriter) error) restRoute {
		return restRoute{
			method: http.MethodGet, path: path, action: action, params: params, list: true, resource: resource,
			stream: each,
		}
	}
	return []restRoute{{
		method: http.MethodGet, path: "/api/has_permission/:user/:name", action: "user_has_permission",
		params: []restParam{{"user", "user"}, {"name", "permission"}},
		resource: func(call *restCall) string {
			return "user:" + call.cl.scope.AuditName(call.args[0]) + "/" + call.cl.scope.AuditName(call.args[1])
		},
		run: func(call *restCall) (int, string, any, error) {
			// The names are checked already: UserHasPermission answers
			// impossible names with false, the REST API with 400.
			ok, err := call.cl.UserHasPermission(call.ctx, call.args[0], call.args[1])
			return restResultAnswer(ok, err)
		},
	},
		list("/api/user_permissions/:user", "get_user_permissions", user, userResource,
			func(call *restCall, w *restListWriter) error {
				return storage.EachUserPermission(call.ctx, call.cl.az.db, call.cl.scope, call.args[0], call.window(),
					restEachName(w, restAsName))
			}),
		list("/api/user_roles/:user", "get_user_roles", user, userResource,
			func(call *restCall, w *restListWriter) error {
				return storage.EachUserRole(call.ctx, call.cl.az.db, call.cl.scope, call.args[0], call.window(),
					restEachName(w, restAsRole))
			}),
		list("/api/role_permissions/:role", "get_permissions", role, roleResource,
			func(call *restCall, w *restListWriter) error {
				return storage.EachRolePermission(call.ctx, call.cl.az.db, call.cl.scope, call.args[0], call.window(),
					restEachName(w, restAsName))
			}),
		list("/api/members/:role", "get_role_members", role, roleResource,
			func(call *restCall, w *restListWriter) error {
				return storage.EachRoleMember(call.ctx, call.cl.az.db, call.cl.scope, call.args[0], call.window(),
					restEachName(w, restAsUser))
			}),
		list("/api/which_roles_can/:name", "which_roles_can", perm, permResource,
			func(call *restCall, w *restListWriter) error {
				return storage.EachWhichRoleCan(call.ctx, call.cl.az.db, call.cl.scope, call.args[0], call.window(),
					restEachName(w, restAsRole))
			}),
		list("/api/which_users_can/:name", "which_users_can", perm, permResource,
			func(call *restCall, w *restListWriter) error {
				return storage.EachWhichUserCan(call.ctx, call.cl.az.db, call.cl.scope, call.args[0], call.window(),
					restEachName(w, restAsUser))
			}),
	}
}
