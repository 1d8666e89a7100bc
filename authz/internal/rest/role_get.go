package rest

import (
	"net/http"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// roleDetail is the data of GET /api/role/:role: the role, and what
// hangs on it (what deleting it removes).
type roleDetail struct {
	rbac.Role
	Counts rbac.RoleCounts `json:"counts"`
}

// getRoleRoute: GET /api/role/:role, one role with its description and
// the counts of its grants, memberships (global and scoped) and
// inheritance links; 404 when it does not exist. The admin console
// describes a role, and names what a delete takes with it, from this.
func getRoleRoute() route {
	return route{
		method: http.MethodGet, path: "/api/role/:role", action: "get_role",
		params:   []param{{"role", "role"}},
		resource: func(call *request) string { return "role:" + call.args[0] },
		run: func(call *request) (int, string, any, error) {
			r, counts, err := call.cl.RoleDetail(call.ctx, call.args[0])
			if err != nil {
				return 0, "", nil, err
			}
			return http.StatusOK, "ok", roleDetail{Role: r, Counts: counts}, nil
		},
	}
}
