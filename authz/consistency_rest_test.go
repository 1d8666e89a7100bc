package authz

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestRESTRevision: every successful write answers Rolegate-Revision (the
// revision it made; the current one when it found nothing to do), a
// refused write none; GET /api/revision answers the current token; reads
// take ?at_least= and refuse a malformed token or one the store has not
// reached with 400; writes do not take it. On both databases.
func TestRESTRevision(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, target storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		key := newKey()
		write := func(method, path string, status int, wantRev string) {
			t.Helper()
			w := performRequest(e, method, path, key, nil)
			checkEnvelope(t, w, status)
			if got := w.Header().Get("Rolegate-Revision"); got != wantRev {
				t.Fatalf("%s %s: Rolegate-Revision = %q, want %q", method, path, got, wantRev)
			}
		}
		revisionIs := func(want string) {
			t.Helper()
			body := checkEnvelope(t, performRequest(e, http.MethodGet, "/api/revision", key, nil), http.StatusOK)
			if data, _ := body["data"].(map[string]any); data["revision"] != want || len(data) != 1 {
				t.Fatalf("GET /api/revision data = %v, want {revision: %s}", body["data"], want)
			}
		}
		revisionIs("r0")
		write(http.MethodPost, "/api/role/editor", http.StatusCreated, "r1")
		write(http.MethodPost, "/api/role/editor", http.StatusOK, "r1")
		write(http.MethodPost, "/api/permission/editor/edit", http.StatusCreated, "r2")
		write(http.MethodPost, "/api/membership/sara/editor?scope=org-1", http.StatusCreated, "r3")
		write(http.MethodDelete, "/api/membership/jack/editor", http.StatusOK, "r3")
		write(http.MethodPost, "/api/permission/ghost/edit", http.StatusNotFound, "")
		w := performRequest(e, http.MethodPost, "/api/batch", key, strings.NewReader(`{"operations":[{"op":"add_membership","user":"jack","role":"editor"}]}`))
		checkEnvelope(t, w, http.StatusCreated)
		if got := w.Header().Get("Rolegate-Revision"); got != "r4" {
			t.Fatalf("POST /api/batch: Rolegate-Revision = %q, want r4", got)
		}
		revisionIs("r4")

		for _, path := range []string{"/api/has_permission/jack/edit", "/api/user_roles/sara?scope=org-1&", "/api/roles", "/api/revision", "/api/members/editor", "/api/audit"} {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = ""
			}
			w := performRequest(e, http.MethodGet, path+sep+"at_least=r4", key, nil)
			checkEnvelope(t, w, http.StatusOK)
			if w.Header().Get("Rolegate-Revision") != "" {
				t.Fatalf("GET %s answered a Rolegate-Revision header", path)
			}
		}
		body := checkEnvelope(t, performRequest(e, http.MethodGet, "/api/has_permission/jack/edit?at_least=r4", key, nil), http.StatusOK)
		if data, _ := body["data"].(map[string]any); data["result"] != true {
			t.Fatalf("has_permission at r4 = %v", body["data"])
		}
		for _, bad := range []string{"r5", "4", "r04", "r-1", "", "r4&at_least=r4"} {
			w := performRequest(e, http.MethodGet, "/api/has_permission/jack/edit?at_least="+bad, key, nil)
			body := checkEnvelope(t, w, http.StatusBadRequest)
			if msg, _ := body["error"].(string); !strings.Contains(msg, "at_least") && !strings.Contains(msg, "revision") {
				t.Fatalf("at_least=%s: error %q names neither at_least nor the revision", bad, msg)
			}
		}
		checkEnvelope(t, performRequest(e, http.MethodPost, "/api/role/viewer?at_least=r4", key, nil), http.StatusBadRequest)
	})
}

// TestRESTReadAfterWriteOnReplica: two host apps over one database, each
// with rolegate mounted and its periodic revision check a minute away. A
// revoke through a's REST API, then has_permission on b with the revoke's
// Rolegate-Revision: refused, every time, at once.
func TestRESTReadAfterWriteOnReplica(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		slow := func(c *Config) { c.RevisionCheckInterval = time.Minute }
		a, _ := openREST(t, target, slow)
		b, _ := openREST(t, target, slow)
		ea, eb := newTestRouter(t, a, ""), newTestRouter(t, b, "")
		key := newKey()
		for _, path := range []string{"/api/role/editor", "/api/permission/editor/edit"} {
			checkEnvelope(t, performRequest(ea, http.MethodPost, path, key, nil), http.StatusCreated)
		}
		result := func(w *httptest.ResponseRecorder) bool {
			t.Helper()
			body := checkEnvelope(t, w, http.StatusOK)
			data, _ := body["data"].(map[string]any)
			return data["result"] == true
		}
		for i := range 20 {
			w := performRequest(ea, http.MethodPost, "/api/membership/sara/editor", key, nil)
			checkEnvelope(t, w, http.StatusCreated)
			if !result(performRequest(eb, http.MethodGet, "/api/has_permission/sara/edit?at_least="+w.Header().Get("Rolegate-Revision"), key, nil)) {
				t.Fatalf("round %d: b refuses sara at the grant's revision", i)
			}
			w = performRequest(ea, http.MethodDelete, "/api/membership/sara/editor", key, nil)
			checkEnvelope(t, w, http.StatusOK)
			if result(performRequest(eb, http.MethodGet, "/api/has_permission/sara/edit?at_least="+w.Header().Get("Rolegate-Revision"), key, nil)) {
				t.Fatalf("round %d: b allows sara at the revoke's revision", i)
			}
		}
	})
}
