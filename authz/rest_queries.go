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
	userResource := func(call *restCall) string { return "user:" + call.cl.scope.AuditUser(call.args[0]) }
	roleResource := func(call *restCall) string { return "role:" + call.args[0] }
	permResource := func(call *restCall) string { return "permission:" + call.cl.scope.AuditPermission(call.args[0]) }
	list := func(path, action string, params []restParam, resource func(*restCall) string,
		each func(*restCall, *restListWriter) error) restRoute {
		return restRoute{
			method: http.MethodGet, path: path, action: action, params: params, list: true, resource: resource,
			stream: each,
		}
	}
	// withScope answers from in when the request names a scope, else as
	// the seed did; both stream from the store window by window.
	withScope := func(rt restRoute, in func(call *restCall, scope string, w *restListWriter) error) restRoute {
		plain := rt.stream
		rt.stream = func(call *restCall, w *restListWriter) error {
			scope, err := restScope(call)
			if err != nil {
				return err
			}
			if scope == "" {
				return plain(call, w)
			}
			return in(call, scope, w)
		}
		return rt
	}
	scopedRole := func(m storage.Member) ScopedRole { return ScopedRole{Role: m.Name, Scope: m.Scope} }
	scopedUser := func(m storage.Member) ScopedUser { return ScopedUser{User: m.Name, Scope: m.Scope} }
	return []restRoute{{
		method: http.MethodGet, path: "/api/has_permission/:user/:name", action: "user_has_permission",
		params: []restParam{{"user", "user"}, {"name", "permission"}},
		resource: func(call *restCall) string {
			return "user:" + call.cl.scope.AuditUser(call.args[0]) + "/" + call.cl.scope.AuditPermission(call.args[1])
		},
		run: func(call *restCall) (int, string, any, error) {
			scope, err := restScope(call)
			if err != nil {
				return 0, "", nil, err
			}
			explain, err := restFlag(call, "explain")
			if err != nil {
				return 0, "", nil, err
			}
			// The names are checked already: UserHasPermission answers
			// impossible names with false, the REST API with 400.
			var ok bool
			if scope != "" {
				ok, err = call.cl.UserHasPermissionIn(call.ctx, scope, call.args[0], call.args[1])
			} else {
				ok, err = call.cl.UserHasPermission(call.ctx, call.args[0], call.args[1])
			}
			if err != nil || !explain {
				return restResultAnswer(ok, err)
			}
			out := restExplained{Result: ok}
			if ok {
				if out.Grant, err = call.cl.explain(call.ctx, scope, call.args[0], call.args[1]); err != nil {
					return 0, "", nil, err
				}
				// Granted by the cache but no path in the store: a change
				// landed in between; answer the store's view.
				out.Result = out.Grant != nil
			}
			return http.StatusOK, "ok", out, nil
		},
	},
		withScope(list("/api/user_permissions/:user", "get_user_permissions", user, userResource,
			func(call *restCall, w *restListWriter) error {
				return storage.Each(call.ctx, call.cl.az.db, call.cl.scope, storage.PermissionsOfUser, "", call.args[0], call.window(),
					restEachName(w, restAsName))
			}),
			func(call *restCall, scope string, w *restListWriter) error {
				return storage.Each(call.ctx, call.cl.az.db, call.cl.scope, storage.PermissionsOfUser, scope, call.args[0],
					call.window(), restEachName(w, restAsName))
			}),
		withScope(list("/api/user_roles/:user", "get_user_roles", user, userResource,
			func(call *restCall, w *restListWriter) error {
				return storage.Each(call.ctx, call.cl.az.db, call.cl.scope, storage.RolesOfUser, "", call.args[0], call.window(),
					restEachName(w, restAsRole))
			}),
			func(call *restCall, scope string, w *restListWriter) error {
				return storage.EachMember(call.ctx, call.cl.az.db, call.cl.scope, storage.RolesOfUser, scope, call.args[0],
					call.window(), restEachMember(w, scopedRole))
			}),
		list("/api/role_permissions/:role", "get_permissions", role, roleResource,
			func(call *restCall, w *restListWriter) error {
				effective, err := restFlag(call, "effective")
				if err != nil {
					return err
				}
				if effective {
					return storage.Each(call.ctx, call.cl.az.db, call.cl.scope, storage.EffectivePermissionsOfRole, "", call.args[0],
						call.window(), restEachName(w, restAsName))
				}
				return storage.Each(call.ctx, call.cl.az.db, call.cl.scope, storage.PermissionsOfRole, "", call.args[0], call.window(),
					restEachName(w, restAsName))
			}),
		withScope(list("/api/members/:role", "get_role_members", role, roleResource,
			func(call *restCall, w *restListWriter) error {
				return storage.Each(call.ctx, call.cl.az.db, call.cl.scope, storage.MembersOfRole, "", call.args[0], call.window(),
					restEachName(w, restAsUser))
			}),
			func(call *restCall, scope string, w *restListWriter) error {
				return storage.EachMember(call.ctx, call.cl.az.db, call.cl.scope, storage.MembersOfRole, scope, call.args[0],
					call.window(), restEachMember(w, scopedUser))
			}),
		list("/api/which_roles_can/:name", "which_roles_can", perm, permResource,
			func(call *restCall, w *restListWriter) error {
				return storage.Each(call.ctx, call.cl.az.db, call.cl.scope, storage.RolesWithPermission, "", call.args[0], call.window(),
					restEachName(w, restAsRole))
			}),
		withScope(list("/api/which_users_can/:name", "which_users_can", perm, permResource,
			func(call *restCall, w *restListWriter) error {
				return storage.Each(call.ctx, call.cl.az.db, call.cl.scope, storage.UsersWithPermission, "", call.args[0], call.window(),
					restEachName(w, restAsUser))
			}),
			func(call *restCall, scope string, w *restListWriter) error {
				return storage.EachMember(call.ctx, call.cl.az.db, call.cl.scope, storage.UsersWithPermission, scope, call.args[0],
					call.window(), restEachMember(w, scopedUser))
			}),
	}
}
