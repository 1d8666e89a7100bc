package authz

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/rolegate/rolegate/storage"
)

// restInheritRoutes: POST and DELETE /api/role/:role/inherits/:parent, GET
// /api/role/:role/inherits.
func restInheritRoutes() []restRoute {
	pair := []restParam{{"role", "role"}, {"parent", "role"}}
	pairResource := func(call *restCall) string { return inheritResource(call.args[0], call.args[1]) }
	return []restRoute{{
		method: http.MethodPost, path: "/api/role/:role/inherits/:parent", action: "add_inheritance", params: pair, write: true,
		resource: pairResource,
		run: func(call *restCall) (int, string, any, error) {
			if err := restReadBody(call, &restNoFields{}, "no fields"); err != nil {
				return 0, "", nil, err
			}
			ok, err := call.cl.AddInheritance(call.ctx, call.args[0], call.args[1])
			if err != nil {
				return 0, "", nil, err
			}
			status, msg := restCreated(ok, "inheritance")
			return status, msg, restInheritance{Role: call.args[0], Parent: call.args[1]}, nil
		},
	}, {
		method: http.MethodDelete, path: "/api/role/:role/inherits/:parent", action: "del_inheritance", params: pair, write: true,
		resource: pairResource,
		run: func(call *restCall) (int, string, any, error) {
			ok, err := call.cl.DelInheritance(call.ctx, call.args[0], call.args[1])
			if err != nil {
				return 0, "", nil, err
			}
			return restDeletedAnswer(ok, "inheritance")
		},
	}, {
		method: http.MethodGet, path: "/api/role/:role/inherits", action: "get_parents",
		params: []restParam{{"role", "role"}}, list: true,
		resource: func(call *restCall) string { return "role:" + call.args[0] },
		stream: func(call *restCall, w *restListWriter) error {
			return storage.Each(call.ctx, call.cl.az.db, call.cl.scope, storage.ParentsOfRole, "", call.args[0], call.window(),
				restEachName(w, restAsRole))
		},
	}}
}

// restInheritance is the data of POST /api/role/:role/inherits/:parent.
type restInheritance struct {
	Role   string `json:"role"`
	Parent string `json:"parent"`
}

// restScope reads the optional ?scope=S: "" when absent; a 400 when empty,
// given twice or not a valid name.
func restScope(call *restCall) (string, error) {
	v, ok, err := restQueryValue(call.c.Request.URL.Query(), "scope")
	if err != nil || !ok {
		return "", err
	}
	if !ValidName(v) {
		return "", restRefuse(fmt.Errorf("%w: scope must be 1 to %d characters of valid UTF-8, with no control characters, no '/', and no leading or trailing space", ErrInvalidName, MaxNameLength))
	}
	return v, nil
}

// restFlag reads an optional boolean query parameter (?effective=true).
func restFlag(call *restCall, name string) (bool, error) {
	v, ok, err := restQueryValue(call.c.Request.URL.Query(), name)
	if err != nil || !ok {
		return false, err
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, restRefuse(fmt.Errorf("%w: %s must be true or false", errBadRequest, name))
	}
	return b, nil
}

// restExplained is the data of GET /api/has_permission with ?explain=true:
// the granting path beside the result, none when denied.
type restExplained struct {
	Result bool   `json:"result"`
	Grant  *Grant `json:"grant,omitempty"`
}
