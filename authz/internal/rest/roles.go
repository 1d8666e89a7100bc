package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
)

// roleRoutes: GET /api/roles (with X-Total-Count, see totalCount), POST
// and DELETE /api/role/:role.
func roleRoutes() []route {
	roleParam := []param{{"role", "role"}}
	roleResource := func(call *request) string { return "role:" + call.args[0] }
	return []route{{
		method: http.MethodGet, path: "/api/roles", action: "roles", list: true, query: []string{"prefix"},
		stream: func(call *request, w *listWriter) error {
			if err := totalCount(call, call.cl.CountRoles); err != nil {
				return err
			}
			return withPrefix(call, func(r rbac.Role) string { return r.Role },
				func(win rbac.ListWindow, fn func([]rbac.Role) error) error {
					return call.cl.EachRole(call.ctx, win, fn)
				},
				eachEntry[rbac.Role](w))
		},
	}, {
		method: http.MethodPost, path: "/api/role/:role", action: "add_role", params: roleParam, write: true,
		resource: roleResource,
		run: func(call *request) (int, string, any, error) {
			var body struct {
				Description string `json:"description"`
			}
			if err := readBody(call, &body, `an optional "description" string`); err != nil {
				return 0, "", nil, err
			}
			if err := call.cl.CheckDescription(body.Description); err != nil {
				return 0, "", nil, refuse(err)
			}
			role := call.args[0]
			w, err := call.cl.Writes().AddRole(call.ctx, role, body.Description)
			if err != nil {
				return 0, "", nil, err
			}
			ok := call.wrote(w)
			out := rbac.Role{Role: role, Description: body.Description}
			if !ok {
				// Adding an existing role leaves its description alone:
				// answer what is stored.
				r, err := call.cl.GetRole(call.ctx, role)
				switch {
				case err == nil:
					out.Description = r.Description
				case !errors.Is(err, rbac.ErrRoleNotFound): // deleted meanwhile: answer what was asked
					return 0, "", nil, err
				}
			}
			status, msg := created(ok, "role")
			return status, msg, out, nil
		},
	}, {
		method: http.MethodDelete, path: "/api/role/:role", action: "del_role", params: roleParam, write: true,
		resource: roleResource,
		run: func(call *request) (int, string, any, error) {
			w, err := call.cl.Writes().DelRole(call.ctx, call.args[0])
			if err != nil {
				return 0, "", nil, err
			}
			ok := call.wrote(w)
			return deletedAnswer(ok, "role")
		},
	}}
}

// readBody decodes an optional JSON object body into dst. No body, or
// only white space, leaves dst alone; anything else must be one JSON
// object with no fields other than dst's. want describes the allowed
// fields for the error message. A body over the limit is a 413.
func readBody(call *request, dst any, want string) error {
	r := call.c.Request.Body
	if r == nil || r == http.NoBody {
		return nil
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		if middleware.IsBodyTooLarge(err) {
			return refuse(fmt.Errorf("%w: over %d bytes", errBodyTooLarge, middleware.DefaultBodyLimit))
		}
		return refuse(fmt.Errorf("%w: body could not be read", errBadRequest))
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	bad := refuse(fmt.Errorf("%w: body must be empty or a JSON object with %s", errBadRequest, want))
	if bytes.TrimSpace(raw)[0] != '{' {
		return bad
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return bad
	}
	if _, err := dec.Token(); err != io.EOF {
		return bad // trailing data after the object
	}
	return nil
}
