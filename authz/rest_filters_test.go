package authz

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestRESTListFiltersAndTotals: GET /api/scoped_memberships keeps the
// memberships of ?scope, ?user and ?role (any together); ?prefix narrows
// a role's grants (direct and effective), parents and children and a
// user's permissions; ?total=true gives X-Total-Count on every list but
// roles and users (which always send it): the entries of the whole list
// the request names, whatever ?limit and ?after, equal to the list read
// whole. Unknown parameters are still refused. Names plain and encrypted.
func TestRESTListFiltersAndTotals(t *testing.T) {
	forEachStoreEncrypted(t, func(t *testing.T, az *Authz, _ bool) { testRESTListFilters(t, az) })
}

func testRESTListFilters(t *testing.T, az *Authz) {
	e := newTestRouter(t, az, "")
	ctx := context.Background()
	key := newKey()
	cl := mustClient(t, az, key)
	ops := []Operation{
		{Op: "add_role", Role: "base"}, {Op: "add_role", Role: "dev"}, {Op: "add_role", Role: "ops"}, {Op: "add_role", Role: "lead"},
		{Op: "add_inheritance", Role: "dev", Parent: "base"}, {Op: "add_inheritance", Role: "lead", Parent: "dev"},
		{Op: "add_inheritance", Role: "ops", Parent: "base"},
		{Op: "add_permission", Role: "base", Permission: "notes.read"}, {Op: "add_permission", Role: "base", Permission: "wiki.read"},
		{Op: "add_permission", Role: "dev", Permission: "notes.write"}, {Op: "add_permission", Role: "dev", Permission: "code.push"},
	}
	// 12 users in dev across scopes p1, p2, p10 (two each of u00..u05),
	// six global members of dev, alice in ops in p2 and globally in lead.
	for i := range 6 {
		u := fmt.Sprintf("u%02d", i)
		ops = append(ops, Operation{Op: "add_membership", Role: "dev", User: u})
		for _, p := range []string{"p1", "p2", "p10"}[:1+i%3] {
			ops = append(ops, Operation{Op: "add_membership", Role: "dev", User: u, Scope: p})
		}
	}
	ops = append(ops, Operation{Op: "add_membership", Role: "ops", User: "alice", Scope: "p2"},
		Operation{Op: "add_membership", Role: "lead", User: "alice"})
	if _, err := cl.Batch(ctx, ops); err != nil {
		t.Fatal(err)
	}
	// scoped memberships: u00: p1; u01: p1 p2; u02: p1 p2 p10; u03: p1;
	// u04: p1 p2; u05: p1 p2 p10; alice: p2 (ops). 13 in all.
	get := func(target string) ([]any, string) {
		t.Helper()
		w := performRequest(e, http.MethodGet, target, key, nil)
		data, _ := checkEnvelope(t, w, http.StatusOK)["data"].([]any)
		total, ok := w.Result().Header[middleware.HeaderTotalCount]
		if !ok {
			return data, "none"
		}
		return data, total[0]
	}
	field := func(data []any, f string) string {
		var out []string
		for _, d := range data {
			out = append(out, fmt.Sprint(d.(map[string]any)[f]))
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		target, want, f string
		total           int // -1: none asked
	}{
		{"/api/scoped_memberships?scope=p2", "alice,u01,u02,u04,u05", "user", -1},
		{"/api/scoped_memberships?scope=p2&role=dev", "u01,u02,u04,u05", "user", -1},
		{"/api/scoped_memberships?user=u02", "p1,p10,p2", "scope", -1},
		{"/api/scoped_memberships?user=u02&total=true&limit=1", "p1", "scope", 3},
		{"/api/scoped_memberships?role=ops", "alice", "user", -1},
		{"/api/scoped_memberships?user=alice&scope=p2&role=ops&total=true", "alice", "user", 1},
		{"/api/scoped_memberships?total=true&limit=2", "u00,u01", "user", 13},
		{"/api/scoped_memberships?scope=p10&total=true&limit=1&after=p10/u02/dev", "u05", "user", 2},
		{"/api/scoped_memberships?user=nobody&total=true", "", "user", 0},
		{"/api/role_permissions/dev?prefix=notes", "notes.write", "name", -1},
		{"/api/role_permissions/dev?prefix=notes&effective=true&total=true", "notes.read,notes.write", "name", 2},
		{"/api/role_permissions/lead?effective=true&total=true&limit=1", "code.push", "name", 4},
		{"/api/role/lead/inherits?prefix=d", "dev", "role", -1},
		{"/api/role/base/inherited_by?prefix=o&total=true", "ops", "role", 1},
		{"/api/role/base/inherited_by?total=true", "dev,ops", "role", 2},
		{"/api/user_permissions/alice?prefix=wiki", "wiki.read", "name", -1},
		{"/api/user_permissions/alice?scope=p2&total=true&limit=2", "code.push,notes.read", "name", 4},
		{"/api/members/dev?total=true&limit=2", "u00,u01", "user", 6},
		{"/api/members/dev?scope=p2&prefix=u0&total=true&limit=1", "u00", "user", 10},
		{"/api/user_roles/u05?scope=p10&total=true", "dev,dev", "role", 2},
		{"/api/which_users_can/notes.read?total=true&limit=3", "alice,u00,u01", "user", 7},
		{"/api/which_users_can/wiki.read?scope=p2&total=true&limit=1", "alice", "user", 7},
		{"/api/which_roles_can/notes.read?total=true&limit=1", "base", "role", 4},
	} {
		t.Run(tc.target, func(t *testing.T) {
			data, total := get(tc.target)
			if got := field(data, tc.f); got != tc.want {
				t.Errorf("%s: %s %q, want %q", tc.target, tc.f, got, tc.want)
			}
			want := "none"
			if tc.total >= 0 {
				want = strconv.Itoa(tc.total)
			}
			if total != want {
				t.Errorf("%s: X-Total-Count %s, want %s", tc.target, total, want)
			}
		})
	}
	// The count is the list read whole.
	for _, target := range []string{"/api/members/dev?scope=p1", "/api/which_users_can/code.push?scope=p10",
		"/api/scoped_memberships?scope=p1", "/api/user_roles/u02?scope=p2", "/api/role_permissions/lead?effective=true"} {
		all, _ := get(target)
		_, total := get(target + "&total=true&limit=1")
		if total != strconv.Itoa(len(all)) {
			t.Errorf("%s: X-Total-Count %s, the list holds %d", target, total, len(all))
		}
	}
	for _, target := range []string{
		"/api/scoped_memberships?scope=a%2Fb", "/api/scoped_memberships?user=", "/api/scoped_memberships?role=%20x",
		"/api/scoped_memberships?user=a&user=b", "/api/members/dev?total=maybe", "/api/roles?total=true",
		"/api/users?total=true", "/api/role_permissions/dev?prefix=a%2Fb", "/api/scoped_memberships?usr=u00",
	} {
		w := performRequest(e, http.MethodGet, target, key, nil)
		checkEnvelope(t, w, http.StatusBadRequest)
		if got, ok := w.Result().Header[middleware.HeaderTotalCount]; ok {
			t.Errorf("%s: X-Total-Count %q on a refusal", target, got)
		}
	}
	// A missing role is 404 with no count.
	w := performRequest(e, http.MethodGet, "/api/members/nope?total=true", key, nil)
	checkEnvelope(t, w, http.StatusNotFound)
	if got, ok := w.Result().Header[middleware.HeaderTotalCount]; ok {
		t.Errorf("404 with X-Total-Count %q", got)
	}
}

// TestWhoamiHostNamespace: GET /api/whoami says whether the key's
// namespace is the host's (AUTH_CLIENT_KEY's, which its guards read) or
// another of AUTH_CLIENT_KEYS, which opens a namespace of its own.
func TestWhoamiHostNamespace(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		hostKey, otherKey := newKey(), newKey()
		az, _ := openREST(t, target, func(c *Config) { c.ClientKey = hostKey; c.ClientKeys = []string{otherKey} })
		e := newTestRouter(t, az, "")
		for key, want := range map[string]bool{hostKey: true, otherKey: false} {
			data, _ := checkEnvelope(t, performRequest(e, http.MethodGet, "/api/whoami", key, nil), http.StatusOK)["data"].(map[string]any)
			if data["host"] != want {
				t.Errorf("whoami of %s: host %v, want %v (%v)", key[:4], data["host"], want, data)
			}
		}
	})
}
