package authz

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// restScopedListRoutes are the scoped and effective views with a fixture
// made by seedScopedLists; key is the field a page's after is taken from.
var restScopedListRoutes = []struct{ path, key string }{
	{"/api/user_permissions/u?scope=S", "name"},
	{"/api/user_roles/u?scope=S", "role"},
	{"/api/role_permissions/child?effective=true", "name"},
	{"/api/members/r0?scope=S", "user"},
	{"/api/which_users_can/p0?scope=S", "user"},
	{"/api/role/child/inherits", "role"},
}

// seedScopedLists: roles r0..r9 granting p<i> and q<i>; child inherits
// every r<i> and grants c0. u is a member of r0..r4 globally and of r3..r9
// in S (r3 and r4 both ways), and of child in T (not listed in S). r0 has
// members m0..m9 globally and m5..m14 in S (m5..m9 both ways), and x in T.
func seedScopedLists(t *testing.T, cl *Client) {
	t.Helper()
	ctx := context.Background()
	mustOK(t)(cl.AddRole(ctx, "child", ""))
	mustOK(t)(cl.AddPermission(ctx, "child", "c0"))
	for i := 9; i >= 0; i-- { // out of order on purpose
		r := fmt.Sprintf("r%d", i)
		mustOK(t)(cl.AddRole(ctx, r, ""))
		mustOK(t)(cl.AddPermission(ctx, r, fmt.Sprintf("p%d", i)))
		mustOK(t)(cl.AddPermission(ctx, r, fmt.Sprintf("q%d", i)))
		mustOK(t)(cl.AddInheritance(ctx, "child", r))
		if i <= 4 {
			mustOK(t)(cl.AddMembership(ctx, "u", r))
		}
		if i >= 3 {
			mustOK(t)(cl.AddMembershipIn(ctx, "S", "u", r))
		}
	}
	mustOK(t)(cl.AddMembershipIn(ctx, "T", "u", "child"))
	for j := 14; j >= 0; j-- {
		m := fmt.Sprintf("m%d", j)
		if j <= 9 {
			mustOK(t)(cl.AddMembership(ctx, m, "r0"))
		}
		if j >= 5 {
			mustOK(t)(cl.AddMembershipIn(ctx, "S", m, "r0"))
		}
	}
	mustOK(t)(cl.AddMembershipIn(ctx, "T", "x", "r0"))
}

// scopedEntries returns key[@scope] for each entry of a list response.
func scopedEntries(t *testing.T, body map[string]any, key string) []string {
	t.Helper()
	data, ok := body["data"].([]any)
	if !ok {
		t.Fatalf("data is not a list: %v", body["data"])
	}
	out := make([]string, 0, len(data))
	for _, e := range data {
		m := e.(map[string]any)
		s := fmt.Sprint(m[key])
		if sc, ok := m["scope"]; ok {
			s += "@" + fmt.Sprint(sc)
		}
		out = append(out, s)
	}
	return out
}

// libraryScopedList is what the library API answers for a scoped view.
func libraryScopedList(t *testing.T, cl *Client, i int) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	var err error
	users := func(v []ScopedUser, e error) {
		err = e
		for _, x := range v {
			out = append(out, x.User+map[bool]string{true: "", false: "@" + x.Scope}[x.Scope == ""])
		}
	}
	switch i {
	case 0:
		out, err = cl.GetUserPermissionsIn(ctx, "S", "u")
	case 1:
		var v []ScopedRole
		v, err = cl.GetUserRolesIn(ctx, "S", "u")
		for _, x := range v {
			out = append(out, x.Role+map[bool]string{true: "", false: "@" + x.Scope}[x.Scope == ""])
		}
	case 2:
		out, err = cl.GetEffectivePermissions(ctx, "child")
	case 3:
		users(cl.GetRoleMembersIn(ctx, "S", "r0"))
	case 4:
		users(cl.WhichUsersCanIn(ctx, "S", "p0"))
	case 5:
		out, err = cl.GetParents(ctx, "child")
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestScopedListsSpanWindows: the scoped, effective and inherits views
// read in windows of three answer what the library answers, and paging by
// four gives every entry once, with encryption off and on. A role (or a
// user) held both globally and in the scope is two entries of one name; a
// page never ends between them (it holds limit+1 entries then), so the
// next page, after that name, loses neither. Before, the page ended after
// the global entry and after=<name> skipped the scoped one.
func TestScopedListsSpanWindows(t *testing.T) {
	old := listWindow
	listWindow = 3
	t.Cleanup(func() { listWindow = old })
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		for _, enc := range []bool{false, true} {
			t.Run(fmt.Sprintf("encryption=%v", enc), func(t *testing.T) {
				key := newKey()
				az := openTarget(t, target, func(c *Config) {
					if enc {
						c.EnableEncryption = true
						c.EncryptionKey = "a passphrase long enough for any rule 0123456789"
					}
				})
				cl := mustClient(t, az, key)
				seedScopedLists(t, cl)
				e := newTestRouter(t, az, "")
				for i, rt := range restScopedListRoutes {
					want := libraryScopedList(t, cl, i)
					if len(want) < 10 {
						t.Fatalf("%s: fixture lists only %v", rt.path, want)
					}
					got := scopedEntries(t, checkEnvelope(t, performRequest(e, http.MethodGet, rt.path, key, nil), http.StatusOK), rt.key)
					if !slices.Equal(got, want) {
						t.Errorf("%s = %v, want %v", rt.path, got, want)
					}
					var paged []string
					after := ""
					for range 20 {
						q := rt.path + "?limit=4"
						if strings.Contains(rt.path, "?") {
							q = rt.path + "&limit=4"
						}
						if after != "" {
							q += "&after=" + after
						}
						body := checkEnvelope(t, performRequest(e, http.MethodGet, q, key, nil), http.StatusOK)
						page := scopedEntries(t, body, rt.key)
						paged = append(paged, page...)
						if len(page) > 4 {
							// Only a name's scoped twin may go past the limit.
							names := listNames(t, body, rt.key)
							if len(page) != 5 || names[3] != names[4] {
								t.Errorf("%s: page of %d: %v", q, len(page), page)
							}
						}
						if len(page) < 4 {
							break
						}
						after = listNames(t, body, rt.key)[len(page)-1]
					}
					if !slices.Equal(paged, want) {
						t.Errorf("%s paged = %v, want %v", rt.path, paged, want)
					}
				}
				// Not found keeps its envelope; an unknown scope lists the
				// global entries only.
				for _, p := range []string{"/api/members/nope?scope=S", "/api/role_permissions/nope?effective=true",
					"/api/role/nope/inherits"} {
					checkEnvelope(t, performRequest(e, http.MethodGet, p, key, nil), http.StatusNotFound)
				}
				got := scopedEntries(t, checkEnvelope(t, performRequest(e, http.MethodGet, "/api/user_roles/u?scope=none", key, nil), http.StatusOK), "role")
				if !slices.Equal(got, []string{"r0", "r1", "r2", "r3", "r4"}) {
					t.Errorf("user_roles in scope none = %v", got)
				}
			})
		}
	})
}
