package authz

import (
	"net/http"

	"github.com/rolegate/rolegate/storage"
)

// restRoleDetail is the data of GET /api/role/:role: the role, and what
// hangs on it (what deleting it removes).
type restRoleDetail struct {
	Role
	Counts storage.RoleCounts `json:"counts"`
}

// restGetRoleRoute: GET /api/role/:role, one role with its description and
// the counts of its grants, memberships (global and scoped) and
// inheritance links; 404 when it does not exist. The admin console
// describes a role, and names what a delete takes with it, from this.
func restGetRoleRoute() restRoute {
	return restRoute{
		method: http.MethodGet, path: "/api/role/:role", action: "get_role",
		params:   []restParam{{"role", "role"}},
		resource: func(call *restCall) string { return "role:" + call.args[0] },
		run: func(call *restCall) (int, string, any, error) {
			db, scope := call.cl.az.db, call.cl.scope
			r, err := storage.GetRole(call.ctx, db, scope, call.args[0])
			if err != nil {
				return 0, "", nil, err
			}
			counts, err := storage.CountRole(call.ctx, db, scope, r.Name)
			if err != nil {
				return 0, "", nil, err
			}
			return http.StatusOK, "ok", restRoleDetail{Role: Role{Role: r.Name, Description: r.Description}, Counts: counts}, nil
		},
	}
}
