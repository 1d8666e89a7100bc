package authz

import "net/http"

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
		get func(*restCall) ([]string, error), wrap func([]string, restPage) any) restRoute {
		return restRoute{
			method: http.MethodGet, path: path, action: action, params: params, list: true, resource: resource,
			run: func(call *restCall) (int, string, any, error) {
				names, err := get(call)
				if err != nil {
					return 0, "", nil, err
				}
				return http.StatusOK, "ok", wrap(names, call.page), nil
			},
		}
	}
	// withScope answers from in when the request names a scope, else as
	// the seed did.
	withScope := func(rt restRoute, in func(call *restCall, scope string) (any, error)) restRoute {
		plain := rt.run
		rt.run = func(call *restCall) (int, string, any, error) {
			scope, err := restScope(call)
			if err != nil || scope == "" {
				if err != nil {
					return 0, "", nil, err
				}
				return plain(call)
			}
			data, err := in(call, scope)
			if err != nil {
				return 0, "", nil, err
			}
			return http.StatusOK, "ok", data, nil
		}
		return rt
	}
	scopedRoleKey := func(e ScopedRole) string { return e.Role }
	scopedUserKey := func(e ScopedUser) string { return e.User }
	names := func(v []string, p restPage) any { return restEntries(v, p, restAsName) }
	users := func(v []string, p restPage) any { return restEntries(v, p, restAsUser) }
	roles := func(v []string, p restPage) any { return restEntries(v, p, restAsRole) }
	return []restRoute{{
		method: http.MethodGet, path: "/api/has_permission/:user/:name", action: "user_has_permission",
		params: []restParam{{"user", "user"}, {"name", "permission"}},
		resource: func(call *restCall) string {
			return "user:" + call.cl.scope.AuditName(call.args[0]) + "/" + call.cl.scope.AuditName(call.args[1])
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
			func(call *restCall) ([]string, error) { return call.cl.GetUserPermissions(call.ctx, call.args[0]) }, names),
			func(call *restCall, scope string) (any, error) {
				v, err := call.cl.GetUserPermissionsIn(call.ctx, scope, call.args[0])
				return restEntries(v, call.page, restAsName), err
			}),
		withScope(list("/api/user_roles/:user", "get_user_roles", user, userResource,
			func(call *restCall) ([]string, error) { return call.cl.GetUserRoles(call.ctx, call.args[0]) }, roles),
			func(call *restCall, scope string) (any, error) {
				v, err := call.cl.GetUserRolesIn(call.ctx, scope, call.args[0])
				return restPaginate(v, call.page, scopedRoleKey), err
			}),
		list("/api/role_permissions/:role", "get_permissions", role, roleResource,
			func(call *restCall) ([]string, error) {
				effective, err := restFlag(call, "effective")
				if err != nil {
					return nil, err
				}
				if effective {
					return call.cl.GetEffectivePermissions(call.ctx, call.args[0])
				}
				return call.cl.GetPermissions(call.ctx, call.args[0])
			}, names),
		withScope(list("/api/members/:role", "get_role_members", role, roleResource,
			func(call *restCall) ([]string, error) { return call.cl.GetRoleMembers(call.ctx, call.args[0]) }, users),
			func(call *restCall, scope string) (any, error) {
				v, err := call.cl.GetRoleMembersIn(call.ctx, scope, call.args[0])
				return restPaginate(v, call.page, scopedUserKey), err
			}),
		list("/api/which_roles_can/:name", "which_roles_can", perm, permResource,
			func(call *restCall) ([]string, error) { return call.cl.WhichRolesCan(call.ctx, call.args[0]) }, roles),
		withScope(list("/api/which_users_can/:name", "which_users_can", perm, permResource,
			func(call *restCall) ([]string, error) { return call.cl.WhichUsersCan(call.ctx, call.args[0]) }, users),
			func(call *restCall, scope string) (any, error) {
				v, err := call.cl.WhichUsersCanIn(call.ctx, scope, call.args[0])
				return restPaginate(v, call.page, scopedUserKey), err
			}),
	}
}
