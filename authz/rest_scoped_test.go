package authz

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestRESTScopedMemberships: GET /api/scoped_memberships lists every
// scoped membership of the caller's namespace, in every scope, sorted by
// scope, user, role; pages with ?limit and the scope/user/role cursor
// give the same list, also across many store windows and with user names
// encrypted (plain rows beside encrypted ones listed once); global memberships and other namespaces are not listed; a
// request without a valid key gets a 401 (a new key names its own, empty
// namespace); bad cursors are 400s.
func TestRESTScopedMemberships(t *testing.T) {
	old := listWindow
	listWindow = 3 // lists span many windows
	t.Cleanup(func() { listWindow = old })
	for _, enc := range []bool{false, true} {
		t.Run(fmt.Sprintf("encrypted=%v", enc), func(t *testing.T) {
			storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
				var mod func(*Config)
				if enc {
					mod = encrypted(testPassphrase)
				}
				az, _ := openREST(t, target, mod)
				ctx := context.Background()
				key, other := newKey(), newKey()
				cl, ocl := mustClient(t, az, key), mustClient(t, az, other)
				var want []string
				// Inserted out of order; user names chosen so that byte
				// order differs from insertion and from encrypted order.
				for _, s := range []string{"org-9", "org-10", "Org-1"} {
					for _, r := range []string{"writer", "admin"} {
						mustOK(t)(cl.AddRole(ctx, r, ""))
						for _, u := range []string{"zoe", "Ann", "bob", "ann"} {
							mustOK(t)(cl.AddMembershipIn(ctx, s, u, r))
							want = append(want, s+"/"+u+"/"+r)
						}
					}
				}
				mustOK(t)(cl.AddMembership(ctx, "global-user", "admin"))
				mustOK(t)(ocl.AddRole(ctx, "admin", ""))
				mustOK(t)(ocl.AddMembershipIn(ctx, "org-other", "eve", "admin"))
				slices.Sort(want)
				e := newTestRouter(t, az, "")
				entries := func(q string) []string {
					t.Helper()
					body := checkEnvelope(t, performRequest(e, http.MethodGet, "/api/scoped_memberships"+q, key, nil), http.StatusOK)
					var out []string
					for _, x := range body["data"].([]any) {
						m := x.(map[string]any)
						out = append(out, fmt.Sprintf("%s/%s/%s", m["scope"], m["user"], m["role"]))
					}
					return out
				}
				if got := entries(""); !slices.Equal(got, want) {
					t.Fatalf("all:\n got %v\nwant %v", got, want)
				}
				for _, limit := range []int{1, 2, 5, 24, 1000} {
					var got []string
					after := ""
					for i := 0; i < 100; i++ {
						q := fmt.Sprintf("?limit=%d", limit)
						if after != "" {
							q += "&after=" + url.QueryEscape(after)
						}
						page := entries(q)
						if len(page) > limit {
							t.Fatalf("limit %d: page of %d", limit, len(page))
						}
						got = append(got, page...)
						if len(page) < limit {
							break
						}
						after = page[len(page)-1]
					}
					if !slices.Equal(got, want) {
						t.Fatalf("limit %d:\n got %v\nwant %v", limit, got, want)
					}
				}
				// A cursor that is not an entry still pages from its place.
				if got := entries("?limit=2&after=" + url.QueryEscape("org-10/b/a")); !slices.Equal(got, []string{"org-10/bob/admin", "org-10/bob/writer"}) {
					t.Errorf("after org-10/b/a: %v", got)
				}
				if got := entries("?after=" + url.QueryEscape("org-9/zoe/writer")); len(got) != 0 {
					t.Errorf("after the last entry: %v", got)
				}
				if got := entries("?limit=3&after=" + url.QueryEscape("org-other/a/a")); len(got) != 0 {
					t.Errorf("the other namespace's scope: %v", got)
				}
				for _, q := range []string{"?after=org-9", "?after=a/b", "?after=a/b/c/d", "?after=a//c", "?limit=0", "?limit=1001", "?limit=1&limit=2"} {
					body := checkEnvelope(t, performRequest(e, http.MethodGet, "/api/scoped_memberships"+q, key, nil), http.StatusBadRequest)
					if msg, _ := body["error"].(string); !strings.Contains(msg, "after") && !strings.Contains(msg, "limit") {
						t.Errorf("%s: error %q names neither after nor limit", q, msg)
					}
				}
				checkEnvelope(t, performRequest(e, http.MethodGet, "/api/scoped_memberships", "not-a-client-key", nil), http.StatusUnauthorized)
				checkEnvelope(t, performRequest(e, http.MethodGet, "/api/scoped_memberships", "", nil), http.StatusUnauthorized)
				// The other namespace sees its own only.
				body := checkEnvelope(t, performRequest(e, http.MethodGet, "/api/scoped_memberships", other, nil), http.StatusOK)
				if data := body["data"].([]any); len(data) != 1 || data[0].(map[string]any)["user"] != "eve" {
					t.Errorf("other namespace: %v", data)
				}
			})
		})
	}
}
