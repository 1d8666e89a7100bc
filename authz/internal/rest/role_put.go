package rest

import (
	"fmt"
	"net/http"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// putRoleRoute: PUT /api/role/:role with the body {"description": "..."}
// changes an existing role's description (POST leaves an existing role's
// alone and says it existed): 200 with the role as stored, 404 when the
// role does not exist. The message says whether anything changed. Audited
// as set_description.
func putRoleRoute() route {
	return route{
		method: http.MethodPut, path: "/api/role/:role", action: "set_description",
		params: []param{{"role", "role"}}, write: true,
		resource: func(call *request) string { return "role:" + call.args[0] },
		run: func(call *request) (int, string, any, error) {
			var body struct {
				Description *string `json:"description"`
			}
			const want = `a "description" string`
			if err := readBody(call, &body, want); err != nil {
				return 0, "", nil, err
			}
			if body.Description == nil {
				return 0, "", nil, refuse(fmt.Errorf("%w: body must be a JSON object with %s (\"\" clears it)", errBadRequest, want))
			}
			if err := call.cl.CheckDescription(*body.Description); err != nil {
				return 0, "", nil, refuse(err)
			}
			w, err := call.cl.Writes().SetRoleDescription(call.ctx, call.args[0], *body.Description)
			if err != nil {
				return 0, "", nil, err
			}
			changed := call.wrote(w)
			msg := "description unchanged"
			if changed {
				msg = "description changed"
			}
			return http.StatusOK, msg, rbac.Role{Role: call.args[0], Description: *body.Description}, nil
		},
	}
}
