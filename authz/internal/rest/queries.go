package rest

import (
	"net/http"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// queryRoutes: has_permission and the list endpoints of users, roles
// and permissions.
func queryRoutes() []route {
	user := []param{{"user", "user"}}
	role := []param{{"role", "role"}}
	perm := []param{{"name", "permission"}}
	userResource := func(call *request) string { return "user:" + call.cl.AuditUser(call.args[0]) }
	roleResource := func(call *request) string { return "role:" + call.args[0] }
	permResource := func(call *request) string { return "permission:" + call.cl.AuditPermission(call.args[0]) }
	list := func(path, action string, params []param, resource func(*request) string,
		each func(*request, *listWriter) error) route {
		return route{
			method: http.MethodGet, path: path, action: action, params: params, list: true, resource: resource,
			stream: each,
		}
	}
	// withScope answers from in when the request names a scope, else as
	// the seed did; both stream from the store window by window.
	withScope := func(rt route, in func(call *request, scope string, w *listWriter) error) route {
		plain := rt.stream
		rt.query = append(rt.query, "scope")
		rt.stream = func(call *request, w *listWriter) error {
			scope, err := scopeParam(call)
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
	// prefixed accepts ?prefix (see withPrefix) on a list route.
	prefixed := func(rt route) route { rt.query = append(rt.query, "prefix"); return rt }
	roleEntries := func(w *listWriter) func([]rbac.ScopedRole) error { return eachEntry[rbac.ScopedRole](w) }
	userEntries := func(w *listWriter) func([]rbac.ScopedUser) error { return eachEntry[rbac.ScopedUser](w) }
	rolePermissions := list("/api/role_permissions/:role", "get_permissions", role, roleResource,
		func(call *request, w *listWriter) error {
			effective, err := flag(call, "effective")
			if err != nil {
				return err
			}
			if effective {
				return withPrefix(call, stringKey, func(win rbac.ListWindow, fn func([]string) error) error {
					return call.cl.EachEffectivePermission(call.ctx, call.args[0], win, fn)
				}, eachName(w, asName))
			}
			return withPrefix(call, listedKey, func(win rbac.ListWindow, fn func([]rbac.Listed) error) error {
				return call.cl.EachRolePermissionBounded(call.ctx, call.args[0], win, fn)
			}, eachListed(w, "name"))
		})
	rolePermissions.query = []string{"effective", "prefix"}
	return []route{{
		method: http.MethodGet, path: "/api/has_permission/:user/:name", action: "user_has_permission",
		params: []param{{"user", "user"}, {"name", "permission"}}, query: []string{"scope", "explain"},
		resource: func(call *request) string {
			return "user:" + call.cl.AuditUser(call.args[0]) + "/" + call.cl.AuditPermission(call.args[1])
		},
		run: func(call *request) (int, string, any, error) {
			scope, err := scopeParam(call)
			if err != nil {
				return 0, "", nil, err
			}
			explain, err := flag(call, "explain")
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
				return resultAnswer(ok, err)
			}
			out := explained{Result: ok}
			if ok {
				if scope != "" {
					out.Grant, err = call.cl.ExplainPermissionIn(call.ctx, scope, call.args[0], call.args[1])
				} else {
					out.Grant, err = call.cl.ExplainPermission(call.ctx, call.args[0], call.args[1])
				}
				if err != nil {
					return 0, "", nil, err
				}
				// Granted by the cache but no path in the store: a change
				// landed in between; answer the store's view.
				out.Result = out.Grant != nil
			}
			return http.StatusOK, "ok", out, nil
		},
	},
		prefixed(withScope(list("/api/user_permissions/:user", "get_user_permissions", user, userResource,
			func(call *request, w *listWriter) error {
				return withPrefix(call, stringKey, func(win rbac.ListWindow, fn func([]string) error) error {
					return call.cl.EachUserPermission(call.ctx, call.args[0], win, fn)
				}, eachName(w, asName))
			}),
			func(call *request, scope string, w *listWriter) error {
				return withPrefix(call, stringKey, func(win rbac.ListWindow, fn func([]string) error) error {
					return call.cl.EachUserPermissionIn(call.ctx, scope, call.args[0], win, fn)
				}, eachName(w, asName))
			})),
		prefixed(withScope(list("/api/user_roles/:user", "get_user_roles", user, userResource,
			func(call *request, w *listWriter) error {
				return withPrefix(call, listedKey, func(win rbac.ListWindow, fn func([]rbac.Listed) error) error {
					return call.cl.EachUserRoleBounded(call.ctx, call.args[0], win, fn)
				}, eachListed(w, "role"))
			}),
			func(call *request, scope string, w *listWriter) error {
				return withPrefix(call, func(r rbac.ScopedRole) string { return r.Role },
					func(win rbac.ListWindow, fn func([]rbac.ScopedRole) error) error {
						return call.cl.EachUserRoleIn(call.ctx, scope, call.args[0], win, fn)
					}, roleEntries(w))
			})),
		rolePermissions,
		prefixed(withScope(list("/api/members/:role", "get_role_members", role, roleResource,
			func(call *request, w *listWriter) error {
				return withPrefix(call, listedKey, func(win rbac.ListWindow, fn func([]rbac.Listed) error) error {
					return call.cl.EachRoleMemberBounded(call.ctx, call.args[0], win, fn)
				}, eachListed(w, "user"))
			}),
			func(call *request, scope string, w *listWriter) error {
				return withPrefix(call, func(u rbac.ScopedUser) string { return u.User },
					func(win rbac.ListWindow, fn func([]rbac.ScopedUser) error) error {
						return call.cl.EachRoleMemberIn(call.ctx, scope, call.args[0], win, fn)
					}, userEntries(w))
			})),
		list("/api/which_roles_can/:name", "which_roles_can", perm, permResource,
			func(call *request, w *listWriter) error {
				return call.cl.EachWhichRoleCan(call.ctx, call.args[0], call.window(), eachName(w, asRole))
			}),
		withScope(list("/api/which_users_can/:name", "which_users_can", perm, permResource,
			func(call *request, w *listWriter) error {
				if w.count {
					// ?total counts the users; their ends are not read.
					return call.cl.EachWhichUserCan(call.ctx, call.args[0], call.window(), eachName(w, asUser))
				}
				return call.cl.EachWhichUserCanUntil(call.ctx, call.args[0], call.window(), eachUntil(w))
			}),
			func(call *request, scope string, w *listWriter) error {
				if w.count {
					return call.cl.EachWhichUserCanIn(call.ctx, scope, call.args[0], call.window(), userEntries(w))
				}
				return call.cl.EachWhichUserCanInUntil(call.ctx, scope, call.args[0], call.window(), eachUntil(w))
			}),
	}
}
