package casbincompare

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// querier asks rolegate the questions of Casbin's test helpers.
type querier struct {
	rg      rolegate
	domains bool
	roles   []string // names that are roles in the policy
}

// answer is rolegate's answer and Casbin's expected one for e, or known
// false when rolegate has no counterpart of the helper.
func (q *querier) answer(t *testing.T, e expectation) (got, want any, known bool) {
	t.Helper()
	a := e.args
	str := func(i int) string { return a[i].(string) }
	opt := func(i int) string { // the optional domain argument
		if len(a) > i {
			return a[i].(string)
		}
		return ""
	}
	switch e.call {
	case "testEnforce", "testEnforceCache", "testSyncEnforceCache", "testEnforceSync":
		if q.domains || len(a) != 4 {
			return nil, nil, false
		}
		return q.decide(t, str(0), "", str(1)+":"+str(2)), a[3], true
	case "testDomainEnforce":
		return q.decide(t, str(0), str(1), str(2)+":"+str(3)), a[4], true
	case "testGetRoles":
		return q.directRoles(t, str(1), opt(2)), a[0], true
	case "testGetRolesInDomain":
		return q.directRoles(t, str(0), str(1)), a[2], true
	case "testHasRole":
		return slices.Contains(q.directRoles(t, str(0), opt(3)), str(1)), a[2], true
	case "testGetUsers":
		return q.users(t, str(1), opt(2)), a[0], true
	case "testGetUsersInDomain":
		return q.users(t, str(0), str(1)), a[2], true
	case "testGetImplicitRoles":
		return q.implicitRoles(t, str(0), ""), a[1], true
	case "testGetImplicitRolesInDomain":
		return q.implicitRoles(t, str(0), str(1)), a[2], true
	case "testGetPermissions":
		return q.directPerms(t, str(0), opt(2)), permNames(a[1].([][]string)), true
	case "testGetPermissionsInDomain", "testGetImplicitPermissionsWithDomain":
		return q.effectivePerms(t, str(0), str(1)), permNames(a[2].([][]string)), true
	case "testGetImplicitPermissions":
		return q.effectivePerms(t, str(0), opt(2)), permNames(a[1].([][]string)), true
	case "testGetImplicitUsers":
		if len(a) != 3 {
			return nil, nil, false
		}
		// Casbin's GetImplicitUsersForPermission leaves roles out; a role
		// with p lines of its own is a member of itself in rolegate (its
		// g(x, x)), and left out alike.
		users := slices.DeleteFunc(q.list(t, "/api/which_users_can/"+url.PathEscape(str(1)+":"+str(2)), nil, "user"), q.isRole)
		return users, a[0], true
	}
	return nil, nil, false
}

// permNames are the permission names of Casbin's rows: "obj:act".
func permNames(rows [][]string) []string {
	out := []string{}
	for _, r := range rows {
		if len(r) >= 3 {
			out = append(out, strings.Join(r[len(r)-2:], ":"))
		}
	}
	return out
}

func (q *querier) isRole(s string) bool { return slices.Contains(q.roles, s) }

// roleName is rolegate's name of role r in domain d.
func (q *querier) roleName(r, d string) string {
	if q.domains {
		return r + "@" + d
	}
	return r
}

// casbinName is Casbin's name of a rolegate role seen in domain d, or ""
// when it belongs to another domain.
func (q *querier) casbinName(r, d string) string {
	if !q.domains {
		return r
	}
	name, ok := strings.CutSuffix(r, "@"+d)
	if !ok {
		return ""
	}
	return name
}

func (q *querier) scope(d string) url.Values {
	if d == "" {
		return nil
	}
	return url.Values{"scope": {d}}
}

func (q *querier) decide(t *testing.T, sub, dom, perm string) bool {
	if q.isRole(sub) {
		return q.rg.roleHas(t, q.roleName(sub, dom), perm)
	}
	return q.rg.userHas(t, sub, perm, dom)
}

// directRoles: a user's roles (not the role of their own direct grants),
// or a role's direct parents, in Casbin's names.
func (q *querier) directRoles(t *testing.T, name, dom string) []string {
	var raw []string
	if q.isRole(name) {
		raw = q.list(t, "/api/role/"+url.PathEscape(q.roleName(name, dom))+"/inherits", nil, "role")
	} else {
		raw = q.list(t, "/api/user_roles/"+url.PathEscape(name), q.scope(dom), "role")
	}
	out := []string{}
	for _, r := range raw {
		if c := q.casbinName(r, dom); c != "" && c != name {
			out = append(out, c)
		}
	}
	return out
}

// implicitRoles: directRoles and everything they inherit.
func (q *querier) implicitRoles(t *testing.T, name, dom string) []string {
	out := []string{}
	next := q.directRoles(t, name, dom)
	for len(next) > 0 {
		r := next[0]
		next = next[1:]
		if slices.Contains(out, r) {
			continue
		}
		out = append(out, r)
		next = append(next, q.directRoles(t, r, dom)...)
	}
	return out
}

// users: a role's members and the roles that inherit it.
func (q *querier) users(t *testing.T, role, dom string) []string {
	out := []string{}
	name := url.PathEscape(q.roleName(role, dom))
	for _, u := range q.list(t, "/api/members/"+name, q.scope(dom), "user") {
		if u == role {
			continue // the role's own g(x, x), which Casbin's GetUsersForRole does not list
		}
		out = append(out, u)
	}
	for _, r := range q.list(t, "/api/role/"+name+"/inherited_by", nil, "role") {
		out = append(out, q.casbinName(r, dom))
	}
	return out
}

// directPerms: a role's own grants; a user's direct grants (the role of
// their own name).
func (q *querier) directPerms(t *testing.T, name, dom string) []string {
	return q.list(t, "/api/role_permissions/"+url.PathEscape(q.roleName(name, dom)), nil, "name")
}

// effectivePerms: what a user holds (in the domain), or a role with what
// it inherits.
func (q *querier) effectivePerms(t *testing.T, name, dom string) []string {
	if q.isRole(name) {
		return q.list(t, "/api/role_permissions/"+url.PathEscape(q.roleName(name, dom)), url.Values{"effective": {"true"}}, "name")
	}
	return q.list(t, "/api/user_permissions/"+url.PathEscape(name), q.scope(dom), "name")
}

// list reads one field of every entry of a list route; a role that does
// not exist lists nothing.
func (q *querier) list(t *testing.T, path string, v url.Values, field string) []string {
	t.Helper()
	u := q.rg.url + path
	if len(v) > 0 {
		u += "?" + v.Encode()
	}
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Authorization", "Bearer "+q.rg.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := []string{}
	if resp.StatusCode == http.StatusNotFound {
		return out
	}
	var body struct {
		Data []map[string]any `json:"data"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&body) != nil {
		t.Fatalf("GET %s: %d", u, resp.StatusCode)
	}
	for _, e := range body.Data {
		if s, ok := e[field].(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// equalAnswers compares booleans, and lists as sets.
func equalAnswers(got, want any) bool {
	g, ok1 := got.([]string)
	w, ok2 := want.([]string)
	if !ok1 || !ok2 {
		return got == want
	}
	g, w = slices.Clone(g), slices.Clone(w)
	slices.Sort(g)
	slices.Sort(w)
	return slices.Equal(slices.Compact(g), slices.Compact(w))
}
