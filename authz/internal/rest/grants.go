package rest

import (
	"fmt"
	"net/http"
	"time"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// grant is the data of POST /api/permission/:group/:name.
type grant struct {
	Role string `json:"role"`
	Name string `json:"name"`
	rbac.Bounds
}

// membership is the data of POST /api/membership/:user/:group.
type membership struct {
	User  string `json:"user"`
	Role  string `json:"role"`
	Scope string `json:"scope,omitempty"`
	rbac.Bounds
}

// boundParams are the query parameters of a membership's or a grant's
// time bounds on its POST.
var boundParams = []string{"expires_at", "starts_at"}

// boundsParam reads ?expires_at and ?starts_at (RFC 3339): the bounds the
// POST sets, none when neither is given. A value that does not parse is a
// 400 naming its parameter; the library checks the rest (starts_at
// before expires_at: 400; expires_at already past: 422).
func boundsParam(call *request) (rbac.Bounds, error) {
	q := call.c.Request.URL.Query()
	var b rbac.Bounds
	for _, p := range []struct {
		name string
		to   **time.Time
	}{{"starts_at", &b.StartsAt}, {"expires_at", &b.ExpiresAt}} {
		v, ok, err := queryValue(q, p.name)
		if err != nil || !ok {
			if err != nil {
				return b, err
			}
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return b, fmt.Errorf("%w: %s must be a time in RFC 3339, e.g. 2030-01-11T18:00:00Z", errBadRequest, p.name)
		}
		*p.to = &t
	}
	return b, nil
}

// noFields is the body a grant or membership POST may carry: an empty
// JSON object, or nothing.
type noFields struct{}

// grantRoutes: GET, POST and DELETE /api/permission/:group/:name and
// /api/membership/:user/:group.
func grantRoutes() []route {
	perm := []param{{"group", "role"}, {"name", "permission"}}
	permResource := func(call *request) string { return call.cl.GrantResource(call.args[0], call.args[1]) }
	member := []param{{"user", "user"}, {"group", "role"}}
	memberResource := func(call *request) string { return call.cl.MemberResource(call.args[0], call.args[1]) }
	return []route{{
		method: http.MethodGet, path: "/api/permission/:group/:name", action: "has_permission", params: perm, query: []string{"effective", "explain"},
		resource: permResource,
		run: func(call *request) (int, string, any, error) {
			effective, err := flag(call, "effective")
			if err != nil {
				return 0, "", nil, err
			}
			explain, err := flag(call, "explain")
			if err != nil {
				return 0, "", nil, err
			}
			if explain {
				// The effective answer with where it comes from: one
				// request where a client would otherwise walk the
				// inheritance itself.
				ok, err := call.cl.HasEffectivePermission(call.ctx, call.args[0], call.args[1])
				if err != nil || !ok {
					return explainedRole(ok, nil, err)
				}
				chain, err := call.cl.ExplainRolePermission(call.ctx, call.args[0], call.args[1])
				return explainedRole(chain != nil, chain, err)
			}
			if effective {
				ok, err := call.cl.HasEffectivePermission(call.ctx, call.args[0], call.args[1])
				return resultAnswer(ok, err)
			}
			return boundedAnswer(call.cl.PermissionBounds(call.ctx, call.args[0], call.args[1]))
		},
	}, {
		method: http.MethodPost, path: "/api/permission/:group/:name", action: "add_permission", params: perm, query: boundParams, write: true,
		resource: permResource,
		run: func(call *request) (int, string, any, error) {
			if err := readBody(call, &noFields{}, "no fields"); err != nil {
				return 0, "", nil, err
			}
			b, err := boundsParam(call)
			if err != nil {
				return 0, "", nil, err
			}
			w, err := call.cl.Writes().AddPermission(call.ctx, call.args[0], call.args[1], withBounds(b))
			if err != nil {
				return 0, "", nil, err
			}
			status, msg := created(call.wrote(w), "permission")
			return status, msg, grant{Role: call.args[0], Name: call.args[1], Bounds: utc(b)}, nil
		},
	}, {
		method: http.MethodDelete, path: "/api/permission/:group/:name", action: "del_permission", params: perm, write: true,
		resource: permResource,
		run: func(call *request) (int, string, any, error) {
			w, err := call.cl.Writes().DelPermission(call.ctx, call.args[0], call.args[1])
			if err != nil {
				return 0, "", nil, err
			}
			return deletedAnswer(call.wrote(w), "permission")
		},
	}, {
		method: http.MethodGet, path: "/api/membership/:user/:group", action: "has_membership", params: member, query: []string{"scope"},
		resource: memberResource,
		run: func(call *request) (int, string, any, error) {
			scope, err := scopeParam(call)
			if err != nil {
				return 0, "", nil, err
			}
			if scope == "" {
				return boundedAnswer(call.cl.MembershipBounds(call.ctx, "", call.args[0], call.args[1]))
			}
			// In a scope, a global membership counts too: result is that;
			// the bounds shown are the scoped membership's.
			ok, err := call.cl.HasMembershipIn(call.ctx, scope, call.args[0], call.args[1])
			if err != nil {
				return 0, "", nil, err
			}
			b, _, _, err := call.cl.MembershipBounds(call.ctx, scope, call.args[0], call.args[1])
			return boundedAnswer(b, ok, true, err)
		},
	}, {
		method: http.MethodPost, path: "/api/membership/:user/:group", action: "add_membership", params: member,
		query: append([]string{"scope"}, boundParams...), write: true,
		resource: memberResource,
		run: func(call *request) (int, string, any, error) {
			if err := readBody(call, &noFields{}, "no fields"); err != nil {
				return 0, "", nil, err
			}
			scope, err := scopeParam(call)
			if err != nil {
				return 0, "", nil, err
			}
			b, err := boundsParam(call)
			if err != nil {
				return 0, "", nil, err
			}
			var w rbac.Written
			if scope != "" {
				w, err = call.cl.Writes().AddMembershipIn(call.ctx, scope, call.args[0], call.args[1], withBounds(b))
			} else {
				w, err = call.cl.Writes().AddMembership(call.ctx, call.args[0], call.args[1], withBounds(b))
			}
			if err != nil {
				return 0, "", nil, err
			}
			status, msg := created(call.wrote(w), "membership")
			return status, msg, membership{User: call.args[0], Role: call.args[1], Scope: scope, Bounds: utc(b)}, nil
		},
	}, {
		method: http.MethodDelete, path: "/api/membership/:user/:group", action: "del_membership", params: member, query: []string{"scope"}, write: true,
		resource: memberResource,
		run: func(call *request) (int, string, any, error) {
			scope, err := scopeParam(call)
			if err != nil {
				return 0, "", nil, err
			}
			var w rbac.Written
			if scope != "" {
				w, err = call.cl.Writes().DelMembershipIn(call.ctx, scope, call.args[0], call.args[1])
			} else {
				w, err = call.cl.Writes().DelMembership(call.ctx, call.args[0], call.args[1])
			}
			if err != nil {
				return 0, "", nil, err
			}
			return deletedAnswer(call.wrote(w), "membership")
		},
	}}
}

// roleExplained is the data of GET /api/permission/:group/:name with
// ?explain=true: the effective result and, when true, the roles from the
// role to the one granted the permission.
type roleExplained struct {
	Result bool     `json:"result"`
	Chain  []string `json:"chain,omitempty"`
}

func explainedRole(ok bool, chain []string, err error) (int, string, any, error) {
	if err != nil {
		return 0, "", nil, err
	}
	return http.StatusOK, "ok", roleExplained{Result: ok, Chain: chain}, nil
}

// boundedResult is the data of GET of one membership or grant: result,
// whether it counts now, and the row's bounds when it has some (a row
// outside its window answers false with them).
type boundedResult struct {
	Result bool `json:"result"`
	rbac.Bounds
}

func boundedAnswer(b rbac.Bounds, found, held bool, err error) (int, string, any, error) {
	if err != nil {
		return 0, "", nil, err
	}
	return http.StatusOK, resultMessage, boundedResult{Result: found && held, Bounds: utc(b)}, nil
}

// resultAnswer answers the yes/no queries.
func resultAnswer(ok bool, err error) (int, string, any, error) {
	if err != nil {
		return 0, "", nil, err
	}
	return http.StatusOK, resultMessage, result{Result: ok}, nil
}

// withBounds is the option that sets a row's bounds to b.
func withBounds(b rbac.Bounds) rbac.AddOption { return func(to *rbac.Bounds) { *to = b } }

// utc is b in UTC to the microsecond, as it is stored and listed.
func utc(b rbac.Bounds) rbac.Bounds {
	at := func(t *time.Time) *time.Time {
		if t == nil {
			return nil
		}
		u := t.UTC().Truncate(time.Microsecond)
		return &u
	}
	return rbac.Bounds{StartsAt: at(b.StartsAt), ExpiresAt: at(b.ExpiresAt)}
}
