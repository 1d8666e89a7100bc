package authz

import (
	"encoding/json"
	"maps"
	"net/http"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestRESTGetRole: GET /api/role/:role answers the role with its stored
// description, 404 when absent or deleted, 400 for a bad name; on both
// stores, and with descriptions encrypted.
func TestRESTGetRole(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		for _, enc := range []bool{false, true} {
			az, _ := openREST(t, target, func(c *Config) {
				if enc {
					encrypted(testPassphrase)(c)
					c.EncryptDescriptions = true
				}
			})
			e := newTestRouter(t, az, "")
			key := newKey()
			if w := performRequest(e, http.MethodPost, "/api/role/editor", key, strings.NewReader(`{"description":"Edits notes"}`),
				"Content-Type", "application/json"); w.Code != http.StatusCreated {
				t.Fatalf("POST: %d %s", w.Code, w.Body)
			}
			for _, p := range []string{"/api/role/base", "/api/role/child", "/api/role/editor/inherits/base",
				"/api/role/child/inherits/editor", "/api/permission/editor/edit", "/api/permission/editor/read",
				"/api/membership/ann/editor", "/api/membership/bob/editor", "/api/membership/cy/editor",
				"/api/membership/ann/editor?scope=org-1", "/api/membership/dee/editor?scope=org-2", "/api/membership/ann/base"} {
				if w := performRequest(e, http.MethodPost, p, key, nil); w.Code != http.StatusCreated {
					t.Fatalf("POST %s: %d %s", p, w.Code, w.Body)
				}
			}
			body := checkEnvelope(t, performRequest(e, http.MethodGet, "/api/role/editor", key, nil), http.StatusOK)
			d := body["data"].(map[string]any)
			if d["role"] != "editor" || d["description"] != "Edits notes" {
				t.Errorf("encrypted=%v: GET answered %v", enc, d)
			}
			counts := map[string]string{}
			for k, v := range d["counts"].(map[string]any) {
				counts[k] = v.(json.Number).String()
			}
			want := map[string]string{"permissions": "2", "members": "3", "scoped_members": "2", "parents": "1", "children": "1"}
			if !maps.Equal(counts, want) {
				t.Errorf("encrypted=%v: counts %v, want %v", enc, counts, want)
			}
			checkEnvelope(t, performRequest(e, http.MethodGet, "/api/role/nope", key, nil), http.StatusNotFound)
			checkEnvelope(t, performRequest(e, http.MethodGet, "/api/role/%20x", key, nil), http.StatusBadRequest)
			checkEnvelope(t, performRequest(e, http.MethodGet, "/api/role/editor", newKey(), nil), http.StatusNotFound) // another namespace
			performRequest(e, http.MethodDelete, "/api/role/editor", key, nil)
			checkEnvelope(t, performRequest(e, http.MethodGet, "/api/role/editor", key, nil), http.StatusNotFound)
		}
	})
}
