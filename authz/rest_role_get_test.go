package authz

import (
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
			body := checkEnvelope(t, performRequest(e, http.MethodGet, "/api/role/editor", key, nil), http.StatusOK)
			if d := body["data"].(map[string]any); d["role"] != "editor" || d["description"] != "Edits notes" {
				t.Errorf("encrypted=%v: GET answered %v", enc, d)
			}
			checkEnvelope(t, performRequest(e, http.MethodGet, "/api/role/nope", key, nil), http.StatusNotFound)
			checkEnvelope(t, performRequest(e, http.MethodGet, "/api/role/%20x", key, nil), http.StatusBadRequest)
			checkEnvelope(t, performRequest(e, http.MethodGet, "/api/role/editor", newKey(), nil), http.StatusNotFound) // another namespace
			performRequest(e, http.MethodDelete, "/api/role/editor", key, nil)
			checkEnvelope(t, performRequest(e, http.MethodGet, "/api/role/editor", key, nil), http.StatusNotFound)
		}
	})
}
