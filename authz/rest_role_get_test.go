package authz

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
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

// TestRESTGetRoleReadsOnce: GET /api/role/:role reads the store once, found
// or not (a 404 is audited as a refusal besides): under load every round
// trip is a wait in a queue. On both stores.
func TestRESTGetRoleReadsOnce(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ft := freshTarget(t, target)
		db := storagetest.OpenTarget(t, ft)
		stmts := &statementCounter{}
		db.AddQueryHook(stmts) // before Open: hooks are not to be added while queries run
		az, err := OpenDB(context.Background(), db, configFor(ft))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { az.Close() })
		e := newTestRouter(t, az, "")
		key := newKey()
		if w := performRequest(e, http.MethodPost, "/api/role/editor", key, nil); w.Code != http.StatusCreated {
			t.Fatalf("POST: %d %s", w.Code, w.Body)
		}
		for _, c := range []struct {
			path string
			want int
		}{{"/api/role/editor", http.StatusOK}, {"/api/role/nope", http.StatusNotFound}} {
			stmts.take()
			req := httptest.NewRequestWithContext(counted(context.Background()), http.MethodGet, c.path, nil)
			req.Header.Set("Authorization", "Bearer "+key)
			w := httptest.NewRecorder()
			e.ServeHTTP(w, req)
			if w.Code != c.want {
				t.Fatalf("GET %s: %d %s", c.path, w.Code, w.Body)
			}
			if _, _, reads := writeStatements(stmts.take()); len(reads) != 1 {
				t.Errorf("GET %s read the store %d times, want 1: %q", c.path, len(reads), reads)
			}
		}
	})
}

// TestCountRoleReadsNoDescription: CountRole counts without reading the
// description, so a description that no longer decrypts (damaged in the
// store) fails RoleDetail and GetRole but not the counts; on both stores.
func TestCountRoleReadsNoDescription(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, func(c *Config) {
			encrypted(testPassphrase)(c)
			c.EncryptDescriptions = true
		})
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		if _, err := c.Batch(ctx, []Operation{{Op: "add_role", Role: "r", Description: "secret"},
			{Op: "add_permission", Role: "r", Permission: "p"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := az.db.NewRaw("UPDATE rolegate_roles SET description = description || 'zz' WHERE ns = ? AND name = 'r'", c.scope.NS).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.RoleDetail(ctx, "r"); err == nil {
			t.Error("RoleDetail answered a damaged description")
		}
		if n, err := c.CountRole(ctx, "r"); err != nil || n.Permissions != 1 {
			t.Errorf("CountRole = %+v, %v; want 1 permission", n, err)
		}
		if n, err := c.CountRole(ctx, "nope"); err != nil || n != (RoleCounts{}) {
			t.Errorf("CountRole of a missing role = %+v, %v; want zeros", n, err)
		}
	})
}
