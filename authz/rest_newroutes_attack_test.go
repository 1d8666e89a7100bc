package authz

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// The routes added with the console (GET /api/role/{role} with counts,
// /inherited_by, /api/audit?action=) answer from the caller's namespace
// only: client B, holding the same role names as A, sees its own (empty)
// counts and links, and none of A's audit records whatever the action.
// Bad input gets the envelope, never a 500.
func TestRESTNewRoutesIsolation(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, _ storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		keyA, keyB := newKey(), newKey()
		do := func(key, method, path string, want int) map[string]any {
			t.Helper()
			return checkEnvelope(t, performRequest(e, method, path, key, nil, "X-Request-ID", "req-"+key[:4]), want)
		}
		data := func(env map[string]any) string {
			b, _ := json.Marshal(env["data"])
			return string(b)
		}
		counts := func(env map[string]any) string {
			b, _ := json.Marshal(env["data"].(map[string]any)["counts"]) // keys sorted
			return string(b)
		}
		for _, p := range []string{"/api/role/cook", "/api/role/chef", "/api/permission/cook/stir",
			"/api/membership/sara/cook", "/api/membership/sara/cook?scope=org-1", "/api/role/chef/inherits/cook"} {
			do(keyA, http.MethodPost, p, http.StatusCreated)
		}
		if got := counts(do(keyA, http.MethodGet, "/api/role/cook", 200)); got != `{"children":1,"members":1,"parents":0,"permissions":1,"scoped_members":1}` {
			t.Errorf("A's counts: %s", got)
		}
		do(keyB, http.MethodGet, "/api/role/cook", http.StatusNotFound)
		do(keyB, http.MethodGet, "/api/role/cook/inherited_by", http.StatusNotFound)
		do(keyB, http.MethodPost, "/api/role/cook", http.StatusCreated)
		if got := counts(do(keyB, http.MethodGet, "/api/role/cook", 200)); got != `{"children":0,"members":0,"parents":0,"permissions":0,"scoped_members":0}` {
			t.Errorf("B's counts of its own cook: %s", got)
		}
		if got := data(do(keyB, http.MethodGet, "/api/role/cook/inherited_by", 200)); got != `[]` {
			t.Errorf("B's cook is inherited by %s", got)
		}
		for _, action := range []string{"", "add_role", "add_permission", "add_membership", "add_inherit", "list_audit"} {
			recs := do(keyB, http.MethodGet, "/api/audit?limit=1000&action="+action, 200)["data"].([]any)
			for _, r := range recs {
				if id := r.(map[string]any)["client_request_id"]; id != "req-"+keyB[:4] {
					t.Errorf("B's audit (action=%q) shows %v", action, r)
				}
			}
		}
		for _, p := range []string{
			"/api/audit?action=" + strings.Repeat("a", 10000), "/api/audit?action=%00", "/api/audit?before=-1",
			"/api/audit?before=99999999999999999999", "/api/audit?limit=0", "/api/audit?limit=1e9",
			"/api/role/cook/inherited_by?limit=-1", "/api/role/cook/inherited_by?after=%FF",
			"/api/role/" + strings.Repeat("x", 129), "/api/role/%FF", "/api/role/%20x",
			"/api/role/" + strings.Repeat("x", 129) + "/inherited_by",
		} {
			w := performRequest(e, http.MethodGet, p, keyB, nil)
			if w.Code != http.StatusBadRequest {
				t.Errorf("GET %.60s: %d, want 400 (%s)", p, w.Code, w.Body.String())
			}
		}
	})
}

// A Go client sends "." and ".." as written, so the routes reach those
// names over a real connection: removing the link to ".." removes the
// link, not the role (what the README tells console users to do instead).
func TestRESTDotNamesOverLoopback(t *testing.T) {
	az, _ := openREST(t, storagetest.SQLite(t), nil)
	srv := httptest.NewServer(newTestRouter(t, az, ""))
	t.Cleanup(srv.Close)
	key := newKey()
	do := func(method, path string, want int) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("%s %s: %d, want %d", method, path, res.StatusCode, want)
		}
	}
	for _, p := range []string{"/api/role/x", "/api/role/..", "/api/role/.", "/api/role/x/inherits/..", "/api/role/x/inherits/."} {
		do(http.MethodPost, p, http.StatusCreated)
	}
	do(http.MethodDelete, "/api/role/x/inherits/..", http.StatusOK)
	do(http.MethodDelete, "/api/role/x/inherits/.", http.StatusOK)
	do(http.MethodGet, "/api/role/x", http.StatusOK)
	do(http.MethodGet, "/api/role/..", http.StatusOK)
}
