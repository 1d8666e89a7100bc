package authz

import (
	"net/http"

	"github.com/rolegate/rolegate/storage"
)

// restGetRoleRoute: GET /api/role/:role, one role with its description;
// 404 when it does not exist. The admin console describes a role with it.
func restGetRoleRoute() restRoute {
	return restRoute{
		method: http.MethodGet, path: "/api/role/:role", action: "get_role",
		params:   []restParam{{"role", "role"}},
		resource: func(call *restCall) string { return "role:" + call.args[0] },
		run: func(call *restCall) (int, string, any, error) {
			r, err := storage.GetRole(call.ctx, call.cl.az.db, call.cl.scope, call.args[0])
			if err != nil {
				return 0, "", nil, err
			}
			return http.StatusOK, "ok", Role{Role: r.Name, Description: r.Description}, nil
		},
	}
}
