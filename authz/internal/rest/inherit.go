package rest

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
)

// inheritRoutes: POST and DELETE /api/role/:role/inherits/:parent, GET
// /api/role/:role/inherits.
func inheritRoutes() []route {
	pair := []param{{"role", "role"}, {"parent", "role"}}
	pairResource := func(call *request) string { return call.cl.InheritResource(call.args[0], call.args[1]) }
	return []route{{
		method: http.MethodPost, path: "/api/role/:role/inherits/:parent", action: "add_inheritance", params: pair, write: true,
		resource: pairResource,
		run: func(call *request) (int, string, any, error) {
			if err := readBody(call, &noFields{}, "no fields"); err != nil {
				return 0, "", nil, err
			}
			w, err := call.cl.Writes().AddInheritance(call.ctx, call.args[0], call.args[1])
			if err != nil {
				return 0, "", nil, err
			}
			ok := call.wrote(w)
			status, msg := created(ok, "inheritance")
			return status, msg, inheritance{Role: call.args[0], Parent: call.args[1]}, nil
		},
	}, {
		method: http.MethodDelete, path: "/api/role/:role/inherits/:parent", action: "del_inheritance", params: pair, write: true,
		resource: pairResource,
		run: func(call *request) (int, string, any, error) {
			w, err := call.cl.Writes().DelInheritance(call.ctx, call.args[0], call.args[1])
			if err != nil {
				return 0, "", nil, err
			}
			ok := call.wrote(w)
			return deletedAnswer(ok, "inheritance")
		},
	}, {
		method: http.MethodGet, path: "/api/role/:role/inherits", action: "get_parents",
		params: []param{{"role", "role"}}, list: true,
		resource: func(call *request) string { return "role:" + call.args[0] },
		stream: func(call *request, w *listWriter) error {
			return call.cl.EachParent(call.ctx, call.args[0], call.window(), eachName(w, asRole))
		},
	}}
}

// inheritance is the data of POST /api/role/:role/inherits/:parent.
type inheritance struct {
	Role   string `json:"role"`
	Parent string `json:"parent"`
}

// scopeParam reads the optional ?scope=S: "" when absent; a 400 when empty,
// given twice or not a valid name.
func scopeParam(call *request) (string, error) {
	if call.c.Request.URL.RawQuery == "" {
		return "", nil
	}
	v, ok, err := queryValue(call.c.Request.URL.Query(), "scope")
	if err != nil || !ok {
		return "", err
	}
	if !middleware.ValidName(v) {
		return "", refuse(fmt.Errorf("%w: scope must be 1 to %d characters of valid UTF-8, with no control characters, no '/', and no leading or trailing space", rbac.ErrInvalidName, middleware.MaxNameLength))
	}
	return v, nil
}

// flag reads an optional boolean query parameter (?effective=true).
func flag(call *request, name string) (bool, error) {
	if call.c.Request.URL.RawQuery == "" {
		return false, nil
	}
	v, ok, err := queryValue(call.c.Request.URL.Query(), name)
	if err != nil || !ok {
		return false, err
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, refuse(fmt.Errorf("%w: %s must be true or false", errBadRequest, name))
	}
	return b, nil
}

// explained is the data of GET /api/has_permission with ?explain=true:
// the granting path beside the result, none when denied.
type explained struct {
	Result bool        `json:"result"`
	Grant  *rbac.Grant `json:"grant,omitempty"`
}
