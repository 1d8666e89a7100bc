package authz

import "net/http"

// restGrant is the data of POST /api/permission/:group/:name.
type restGrant struct {
	Role string `json:"role"`
	Name string `json:"name"`
}

// restMembership is the data of POST /api/membership/:user/:group.
type restMembership struct {
	User  string `json:"user"`
	Role  string `json:"role"`
	Scope string `json:"scope,omitempty"`
}

// restNoFields is the body a grant or membership POST may carry: an empty
// JSON object, or nothing.
type restNoFields struct{}

// restGrantRoutes: GET, POST and DELETE /api/permission/:group/:name and
// /api/membership/:user/:group.
func restGrantRoutes() []restRoute {
	perm := []restParam{{"group", "role"}, {"name", "permission"}}
	permResource := func(call *restCall) string { return call.cl.grantResource(call.args[0], call.args[1]) }
	member := []restParam{{"user", "user"}, {"group", "role"}}
	memberResource := func(call *restCall) string { return call.cl.memberResource(call.args[0], call.args[1]) }
	return []restRoute{{
		method: http.MethodGet, path: "/api/permission/:group/:name", action: "has_permission", params: perm,
		resource: permResource,
		run: func(call *restCall) (int, string, any, error) {
			effective, err := restFlag(call, "effective")
			if err != nil {
				return 0, "", nil, err
			}
			explain, err := restFlag(call, "explain")
			if err != nil {
				return 0, "", nil, err
			}
			if explain {
				// The effective answer with where it comes from: one
				// request where a client would otherwise walk the
				// inheritance itself.
				ok, err := call.cl.HasEffectivePermission(call.ctx, call.args[0], call.args[1])
				if err != nil || !ok {
					return restExplainedRole(ok, nil, err)
				}
				chain, err := call.cl.ExplainRolePermission(call.ctx, call.args[0], call.args[1])
				return restExplainedRole(chain != nil, chain, err)
			}
			if effective {
				ok, err := call.cl.HasEffectivePermission(call.ctx, call.args[0], call.args[1])
				return restResultAnswer(ok, err)
			}
			ok, err := call.cl.HasPermission(call.ctx, call.args[0], call.args[1])
			return restResultAnswer(ok, err)
		},
	}, {
		method: http.MethodPost, path: "/api/permission/:group/:name", action: "add_permission", params: perm, write: true,
		resource: permResource,
		run: func(call *restCall) (int, string, any, error) {
			if err := restReadBody(call, &restNoFields{}, "no fields"); err != nil {
				return 0, "", nil, err
			}
			ok, err := call.cl.AddPermission(call.ctx, call.args[0], call.args[1])
			if err != nil {
				return 0, "", nil, err
			}
			status, msg := restCreated(ok, "permission")
			return status, msg, restGrant{Role: call.args[0], Name: call.args[1]}, nil
		},
	}, {
		method: http.MethodDelete, path: "/api/permission/:group/:name", action: "del_permission", params: perm, write: true,
		resource: permResource,
		run: func(call *restCall) (int, string, any, error) {
			ok, err := call.cl.DelPermission(call.ctx, call.args[0], call.args[1])
			if err != nil {
				return 0, "", nil, err
			}
			return restDeletedAnswer(ok, "permission")
		},
	}, {
		method: http.MethodGet, path: "/api/membership/:user/:group", action: "has_membership", params: member,
		resource: memberResource,
		run: func(call *restCall) (int, string, any, error) {
			scope, err := restScope(call)
			if err != nil {
				return 0, "", nil, err
			}
			if scope != "" {
				ok, err := call.cl.HasMembershipIn(call.ctx, scope, call.args[0], call.args[1])
				return restResultAnswer(ok, err)
			}
			ok, err := call.cl.HasMembership(call.ctx, call.args[0], call.args[1])
			return restResultAnswer(ok, err)
		},
	}, {
		method: http.MethodPost, path: "/api/membership/:user/:group", action: "add_membership", params: member, write: true,
		resource: memberResource,
		run: func(call *restCall) (int, string, any, error) {
			if err := restReadBody(call, &restNoFields{}, "no fields"); err != nil {
				return 0, "", nil, err
			}
			scope, err := restScope(call)
			if err != nil {
				return 0, "", nil, err
			}
			var ok bool
			if scope != "" {
				ok, err = call.cl.AddMembershipIn(call.ctx, scope, call.args[0], call.args[1])
			} else {
				ok, err = call.cl.AddMembership(call.ctx, call.args[0], call.args[1])
			}
			if err != nil {
				return 0, "", nil, err
			}
			status, msg := restCreated(ok, "membership")
			return status, msg, restMembership{User: call.args[0], Role: call.args[1], Scope: scope}, nil
		},
	}, {
		method: http.MethodDelete, path: "/api/membership/:user/:group", action: "del_membership", params: member, write: true,
		resource: memberResource,
		run: func(call *restCall) (int, string, any, error) {
			scope, err := restScope(call)
			if err != nil {
				return 0, "", nil, err
			}
			var ok bool
			if scope != "" {
				ok, err = call.cl.DelMembershipIn(call.ctx, scope, call.args[0], call.args[1])
			} else {
				ok, err = call.cl.DelMembership(call.ctx, call.args[0], call.args[1])
			}
			if err != nil {
				return 0, "", nil, err
			}
			return restDeletedAnswer(ok, "membership")
		},
	}}
}

// restRoleExplained is the data of GET /api/permission/:group/:name with
// ?explain=true: the effective result and, when true, the roles from the
// role to the one granted the permission.
type restRoleExplained struct {
	Result bool     `json:"result"`
	Chain  []string `json:"chain,omitempty"`
}

func restExplainedRole(ok bool, chain []string, err error) (int, string, any, error) {
	if err != nil {
		return 0, "", nil, err
	}
	return http.StatusOK, "ok", restRoleExplained{Result: ok, Chain: chain}, nil
}

// restResultAnswer answers the yes/no queries.
func restResultAnswer(ok bool, err error) (int, string, any, error) {
	if err != nil {
		return 0, "", nil, err
	}
	return http.StatusOK, "ok", restResult{Result: ok}, nil
}
