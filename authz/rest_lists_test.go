package authz

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// restListRoutes are the list routes, with a fixture made by seedLists.
var restListRoutes = []struct{ path, key string }{
	{"/api/roles", "role"},
	{"/api/user_permissions/u", "name"},
	{"/api/user_roles/u", "role"},
	{"/api/role_permissions/r0", "name"},
	{"/api/members/r0", "user"},
	{"/api/which_roles_can/p0", "role"},
	{"/api/which_users_can/p0", "user"},
}

// seedLists: roles r0..r9 each granting p0..p9 and holding members m0..m9
// and u, so that every list route lists ten entries.
func seedLists(t *testing.T, cl *Client) {
	t.Helper()
	ctx := context.Background()
	for i := 9; i >= 0; i-- { // out of order on purpose
		r := fmt.Sprintf("r%d", i)
		mustOK(t)(cl.AddRole(ctx, r, "role "+r))
		mustOK(t)(cl.AddMembership(ctx, "u", r))
		for j := 9; j >= 0; j-- {
			mustOK(t)(cl.AddPermission(ctx, r, fmt.Sprintf("p%d", j)))
			mustOK(t)(cl.AddMembership(ctx, fmt.Sprintf("m%d", j), r))
		}
	}
}

// mustOK fails the test on the error of a library write.
func mustOK(t *testing.T) func(bool, error) {
	return func(_ bool, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// listNames returns the key field of each entry of a list response.
func listNames(t *testing.T, body map[string]any, key string) []string {
	t.Helper()
	data, ok := body["data"].([]any)
	if !ok {
		t.Fatalf("data is not a list: %v", body["data"])
	}
	out := make([]string, 0, len(data))
	for _, e := range data {
		out = append(out, fmt.Sprint(e.(map[string]any)[key]))
	}
	return out
}

// TestListQueryWithSemicolonRefused: "?limit=1;after=x" used to list every
// entry (Go's query parser drops the whole pair with a ';'); it is a 400.
func TestListQueryWithSemicolonRefused(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, _ storagetest.Target, az *Authz, _ *logBuffer) {
		key := newKey()
		seedLists(t, mustClient(t, az, key))
		e := newTestRouter(t, az, "")
		for _, rt := range append(restListRoutes, struct{ path, key string }{"/api/audit", "id"}) {
			for _, q := range []string{"?limit=1;after=r0", "?limit=1;", "?after=%zz"} {
				w := performRequest(e, http.MethodGet, rt.path+q, key, nil)
				body := checkEnvelope(t, w, http.StatusBadRequest)
				if msg, _ := body["error"].(string); !strings.Contains(msg, "query") {
					t.Errorf("%s%s: error %q does not name the query", rt.path, q, msg)
				}
			}
			// The same pairs separated by '&' still work.
			w := performRequest(e, http.MethodGet, rt.path+"?limit=1", key, nil)
			if got := listNames(t, checkEnvelope(t, w, http.StatusOK), rt.key); len(got) != 1 {
				t.Errorf("%s?limit=1 listed %d entries", rt.path, len(got))
			}
		}
	})
}

// TestListsSpanWindows: with windows of three entries every list still
// answers every entry once, sorted, and limit/after page through it, with
// encryption off and on (the plain rows from before encryption converted
// at Open, then new encrypted names and twins of converted ones, which must
// not be listed twice).
func TestListsSpanWindows(t *testing.T) {
	old := listWindow
	listWindow = 3
	t.Cleanup(func() { listWindow = old })
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		for _, enc := range []bool{false, true} {
			t.Run(fmt.Sprintf("encryption=%v", enc), func(t *testing.T) {
				key := newKey()
				plain := openTarget(t, target, nil)
				seedLists(t, mustClient(t, plain, key))
				az := plain
				if enc {
					az = openTarget(t, target, func(c *Config) {
						c.EnableEncryption = true
						c.EncryptionKey = "a passphrase long enough for any rule 0123456789"
						c.EncryptDescriptions = true
					})
					// Names that exist already (converted), and new names.
					cl := mustClient(t, az, key)
					ctx := context.Background()
					for _, r := range []string{"r0", "r3", "r7"} {
						mustOK(t)(cl.AddPermission(ctx, r, "p1"))
						mustOK(t)(cl.AddPermission(ctx, r, "p5"))
						mustOK(t)(cl.AddPermission(ctx, r, "pz"))
						mustOK(t)(cl.AddMembership(ctx, "m2", r))
						mustOK(t)(cl.AddMembership(ctx, "ma", r))
					}
				}
				e := newTestRouter(t, az, "")
				cl := mustClient(t, az, key)
				for _, rt := range restListRoutes {
					want := libraryList(t, cl, rt.path)
					if len(want) < 10 {
						t.Fatalf("%s: fixture lists only %v", rt.path, want)
					}
					w := performRequest(e, http.MethodGet, rt.path, key, nil)
					got := listNames(t, checkEnvelope(t, w, http.StatusOK), rt.key)
					if !slices.Equal(got, want) {
						t.Errorf("%s = %v, want %v", rt.path, got, want)
					}
					// Page by 4 (windows of 3): every entry once.
					var paged []string
					after := ""
					for range 10 {
						q := rt.path + "?limit=4"
						if after != "" {
							q += "&after=" + after
						}
						page := listNames(t, checkEnvelope(t, performRequest(e, http.MethodGet, q, key, nil), http.StatusOK), rt.key)
						paged = append(paged, page...)
						if len(page) < 4 {
							break
						}
						after = page[len(page)-1]
					}
					if !slices.Equal(paged, want) {
						t.Errorf("%s paged = %v, want %v", rt.path, paged, want)
					}
				}
				// Not found and empty lists keep their envelopes.
				checkEnvelope(t, performRequest(e, http.MethodGet, "/api/members/nope", key, nil), http.StatusNotFound)
				checkEnvelope(t, performRequest(e, http.MethodGet, "/api/role_permissions/nope", key, nil), http.StatusNotFound)
				w := performRequest(e, http.MethodGet, "/api/user_roles/nobody", key, nil)
				if got := listNames(t, checkEnvelope(t, w, http.StatusOK), "role"); len(got) != 0 {
					t.Errorf("user_roles of nobody = %v", got)
				}
				if !strings.Contains(w.Body.String(), `"data":[]`) {
					t.Errorf("empty list is not []: %s", w.Body.String())
				}
			})
		}
	})
}

// libraryList is what the library API answers for a list route's path.
func libraryList(t *testing.T, cl *Client, path string) []string {
	t.Helper()
	ctx := context.Background()
	arg := path[strings.LastIndex(path, "/")+1:]
	var out []string
	var err error
	switch {
	case path == "/api/roles":
		var roles []Role
		roles, err = cl.Roles(ctx)
		for _, r := range roles {
			out = append(out, r.Role)
		}
	case strings.HasPrefix(path, "/api/user_permissions/"):
		out, err = cl.GetUserPermissions(ctx, arg)
	case strings.HasPrefix(path, "/api/user_roles/"):
		out, err = cl.GetUserRoles(ctx, arg)
	case strings.HasPrefix(path, "/api/role_permissions/"):
		out, err = cl.GetPermissions(ctx, arg)
	case strings.HasPrefix(path, "/api/members/"):
		out, err = cl.GetRoleMembers(ctx, arg)
	case strings.HasPrefix(path, "/api/which_roles_can/"):
		out, err = cl.WhichRolesCan(ctx, arg)
	case strings.HasPrefix(path, "/api/which_users_can/"):
		out, err = cl.WhichUsersCan(ctx, arg)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestListErrorMidStreamAbortsConnection: a list whose later window fails
// (here a tampered encrypted description) cannot turn into an error
// envelope any more, so the connection is aborted: the client reads a
// body that is not valid JSON instead of a success with half the list. An
// error in the first window is still the error envelope.
func TestListErrorMidStreamAbortsConnection(t *testing.T) {
	old := listWindow
	listWindow = 2
	t.Cleanup(func() { listWindow = old })
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		for _, tc := range []struct {
			tampered string
			midway   bool
		}{{"r7", true}, {"r0", false}} {
			t.Run(tc.tampered, func(t *testing.T) {
				az, logs := openREST(t, target, func(c *Config) {
					c.EnableEncryption = true
					c.EncryptionKey = "a passphrase long enough for any rule 0123456789"
					c.EncryptDescriptions = true
				})
				key := newKey()
				cl := mustClient(t, az, key)
				ctx := context.Background()
				for i := range 10 {
					mustOK(t)(cl.AddRole(ctx, fmt.Sprintf("r%d", i), "secret description"))
				}
				// Flip the last character of one stored description.
				var d string
				if err := az.db.NewRaw("SELECT description FROM rolegate_roles WHERE ns = ? AND name = ?",
					cl.scope.NS, tc.tampered).Scan(ctx, &d); err != nil {
					t.Fatal(err)
				}
				d = d[:len(d)-1] + map[bool]string{true: "A", false: "B"}[d[len(d)-1] != 'A']
				if _, err := az.db.NewRaw("UPDATE rolegate_roles SET description = ? WHERE ns = ? AND name = ?",
					d, cl.scope.NS, tc.tampered).Exec(ctx); err != nil {
					t.Fatal(err)
				}
				srv := httptest.NewServer(newTestRouter(t, az, ""))
				t.Cleanup(srv.Close)
				req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/roles", nil)
				req.Header.Set("Authorization", "Bearer "+key)
				res, err := srv.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				raw, readErr := io.ReadAll(res.Body)
				var body map[string]any
				jsonErr := json.Unmarshal(raw, &body)
				if !tc.midway {
					if res.StatusCode != http.StatusInternalServerError || jsonErr != nil || body["success"] != false {
						t.Fatalf("first window failing: status %d, body %s", res.StatusCode, raw)
					}
					return
				}
				if res.StatusCode != http.StatusOK {
					t.Fatalf("status %d, want 200 (the envelope had begun)", res.StatusCode)
				}
				if readErr == nil {
					t.Errorf("body read without error; the connection was not aborted")
				}
				if jsonErr == nil {
					t.Fatalf("a failed list reads as valid JSON: %s", raw)
				}
				if !strings.Contains(string(raw), `{"role":"r0"`) || strings.Contains(string(raw), `"r9"`) {
					t.Errorf("body %s: want the first windows and not the last", raw)
				}
				if !strings.Contains(logs.String(), "connection aborted") {
					t.Errorf("abort not logged: %s", logs.String())
				}
			})
		}
	})
}
