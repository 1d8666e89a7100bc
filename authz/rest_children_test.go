package authz

import (
	"net/http"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestRESTInheritedBy: GET /api/role/:role/inherited_by lists the roles
// inheriting from the role directly, sorted and paged, on both stores; a
// deleted parent takes the links with it.
func TestRESTInheritedBy(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, _ storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		key := newKey()
		for _, p := range []string{"/api/role/base", "/api/role/b", "/api/role/a", "/api/role/c", "/api/role/x",
			"/api/role/b/inherits/base", "/api/role/a/inherits/base", "/api/role/c/inherits/base", "/api/role/x/inherits/a"} {
			if w := performRequest(e, http.MethodPost, p, key, nil); w.Code != http.StatusCreated {
				t.Fatalf("POST %s: %d %s", p, w.Code, w.Body)
			}
		}
		roles := func(target string, want int) []string {
			t.Helper()
			body := checkEnvelope(t, performRequest(e, http.MethodGet, target, key, nil), want)
			out := []string{}
			if d, ok := body["data"].([]any); ok {
				for _, r := range d {
					out = append(out, r.(map[string]any)["role"].(string))
				}
			}
			return out
		}
		assertList(t, "inherited_by base", roles("/api/role/base/inherited_by", http.StatusOK), nil, "a", "b", "c")
		assertList(t, "first page", roles("/api/role/base/inherited_by?limit=2", http.StatusOK), nil, "a", "b")
		assertList(t, "next page", roles("/api/role/base/inherited_by?limit=2&after=b", http.StatusOK), nil, "c")
		assertList(t, "direct only", roles("/api/role/a/inherited_by", http.StatusOK), nil, "x")
		assertList(t, "none", roles("/api/role/x/inherited_by", http.StatusOK), nil)
		roles("/api/role/nope/inherited_by", http.StatusNotFound)
		roles("/api/role/base/inherited_by?limit=0", http.StatusBadRequest)
		performRequest(e, http.MethodDelete, "/api/role/base", key, nil)
		roles("/api/role/base/inherited_by", http.StatusNotFound)
		assertList(t, "parents of a after the delete", roles("/api/role/a/inherits", http.StatusOK), nil)
	})
}
