package authz

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// hostileNames are path segments as a client would send them.
var hostileNames = []struct{ name, segment string }{
	{"NUL", "%00"},
	{"NUL inside", "a%00b"},
	{"newline", "a%0Ab"},
	{"carriage return", "a%0D%0AX-Injected:%20yes"},
	{"encoded slash", "a%2Fb"},
	{"dot dot", "%2e%2e"},
	{"dot", "%2E"},
	{"10000 characters", strings.Repeat("n", 10000)},
	{"SQL quotes", url.PathEscape(`x'; DROP TABLE rolegate_roles; --`)},
	{"SQL double quotes", url.PathEscape(`"x" OR "1"="1"`)},
	{"script", url.PathEscape(`<script>alert(1)</script>`)},
	{"invalid UTF-8", "%ff%fe"},
	{"percent", "%25"},
	{"unicode", "caf%C3%A9"},
	{"leading space", "%20x"},
	{"tab", "x%09y"},
}

// TestRESTHostileNames sends hostile names through the router into every
// parameter of every route: each is either refused with 400 everywhere or
// accepted everywhere and then behaves like any other name; never 5xx.
func TestRESTHostileNames(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, _ storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		key := newKey()
		for _, h := range hostileNames {
			t.Run(h.name, func(t *testing.T) {
				decoded, err := url.PathUnescape(h.segment)
				valid := err == nil && ValidName(decoded)
				for _, rt := range restRoutes() {
					if len(rt.params) == 0 {
						continue
					}
					path := rt.path
					for _, p := range rt.params {
						path = strings.Replace(path, ":"+p.name, h.segment, 1)
					}
					var body io.Reader
					if rt.method == http.MethodPut { // PUT /api/role/:role needs its body
						body = strings.NewReader(`{"description":""}`)
					}
					w := performRequest(e, rt.method, path, key, body, "Content-Type", "application/json")
					if w.Code >= 500 {
						t.Fatalf("%s %s: %d %s", rt.method, rt.path, w.Code, w.Body.String())
					}
					if !valid {
						checkEnvelope(t, w, http.StatusBadRequest)
						continue
					}
					if w.Code == http.StatusBadRequest {
						t.Errorf("%s %s refused the valid name %q: %s", rt.method, rt.path, decoded, w.Body.String())
					}
				}
				if !valid {
					return
				}
				// Accepted: the name round-trips exactly.
				seg := h.segment
				checkEnvelope(t, performRequest(e, "POST", "/api/role/"+seg, key, nil), http.StatusCreated)
				checkEnvelope(t, performRequest(e, "POST", "/api/permission/"+seg+"/"+seg, key, nil), http.StatusCreated)
				checkEnvelope(t, performRequest(e, "POST", "/api/membership/"+seg+"/"+seg, key, nil), http.StatusCreated)
				body := checkEnvelope(t, performRequest(e, "GET", "/api/has_permission/"+seg+"/"+seg, key, nil), 200)
				if body["data"].(map[string]any)["result"] != true {
					t.Errorf("has_permission = %v", body["data"])
				}
				body = checkEnvelope(t, performRequest(e, "GET", "/api/user_permissions/"+seg, key, nil), 200)
				if got := body["data"].([]any); len(got) != 1 || got[0].(map[string]any)["name"] != decoded {
					t.Errorf("user_permissions = %v, want [%q]", got, decoded)
				}
				body = checkEnvelope(t, performRequest(e, "GET", "/api/roles", key, nil), 200)
				found := false
				for _, r := range body["data"].([]any) {
					found = found || r.(map[string]any)["role"] == decoded
				}
				if !found {
					t.Errorf("roles %v lack %q", body["data"], decoded)
				}
				body = checkEnvelope(t, performRequest(e, "DELETE", "/api/role/"+seg, key, nil), 200)
				if body["data"].(map[string]any)["deleted"] != true {
					t.Errorf("delete = %v", body["data"])
				}
			})
		}
	})
}

// TestRESTEncodedSlashWithoutRawPath: on an engine left at gin's defaults
// an encoded slash splits the path, so the request reaches no route; with
// the opt-in handler that is the 404 envelope, never a name with a slash.
func TestRESTEncodedSlashWithoutRawPath(t *testing.T) {
	az, _ := openREST(t, storagetest.SQLite(t), nil)
	e := gin.New()
	e.NoRoute(az.NotFoundHandler())
	if err := az.Mount(e); err != nil {
		t.Fatal(err)
	}
	checkEnvelope(t, performRequest(e, "POST", "/api/role/a%2Fb", newKey(), nil), http.StatusNotFound)
}

// TestRESTClientIsolation: two client keys on one server see nothing of
// each other, through any route or the audit log, and neither key is
// stored or logged.
func TestRESTClientIsolation(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, _ storagetest.Target, az *Authz, logs *logBuffer) {
		e := newTestRouter(t, az, "")
		keyA, keyB := newKey(), newKey()
		do := func(key, id, method, path string, want int) map[string]any {
			t.Helper()
			return checkEnvelope(t, performRequest(e, method, path, key, nil, "X-Request-ID", id), want)
		}
		do(keyA, "a-1", "POST", "/api/role/cook", 201)
		do(keyA, "a-2", "POST", "/api/permission/cook/cook", 201)
		do(keyA, "a-3", "POST", "/api/membership/sara/cook", 201)
		do(keyA, "a-4", "GET", "/api/members/nobody-role", 404)

		for _, c := range []struct {
			method, path string
			status       int
			data         string
		}{
			{"GET", "/api/roles", 200, `[]`},
			{"GET", "/api/permission/cook/cook", 200, `{"result":false}`},
			{"GET", "/api/membership/sara/cook", 200, `{"result":false}`},
			{"GET", "/api/has_permission/sara/cook", 200, `{"result":false}`},
			{"GET", "/api/user_permissions/sara", 200, `[]`},
			{"GET", "/api/user_roles/sara", 200, `[]`},
			{"GET", "/api/which_roles_can/cook", 200, `[]`},
			{"GET", "/api/which_users_can/cook", 200, `[]`},
			{"GET", "/api/role_permissions/cook", 404, ``},
			{"GET", "/api/members/cook", 404, ``},
			{"POST", "/api/permission/cook/steal", 404, ``},
			{"POST", "/api/membership/mallory/cook", 404, ``},
			{"DELETE", "/api/membership/sara/cook", 200, `{"deleted":false}`},
			{"DELETE", "/api/permission/cook/cook", 200, `{"deleted":false}`},
			{"DELETE", "/api/role/cook", 200, `{"deleted":false}`},
		} {
			t.Run("B "+c.method+" "+c.path, func(t *testing.T) {
				body := do(keyB, "b-x", c.method, c.path, c.status)
				if c.data != "" {
					got, _ := json.Marshal(body["data"])
					if string(got) != c.data {
						t.Errorf("data = %s, want %s", got, c.data)
					}
				}
			})
		}
		t.Run("A unaffected", func(t *testing.T) {
			body := do(keyA, "a-5", "GET", "/api/has_permission/sara/cook", 200)
			if body["data"].(map[string]any)["result"] != true {
				t.Errorf("A lost its grant: %v", body["data"])
			}
		})
		t.Run("audit", func(t *testing.T) {
			for key, prefix := range map[string]string{keyA: "a-", keyB: "b-"} {
				body := do(key, prefix+"audit", "GET", "/api/audit", 200)
				recs := body["data"].([]any)
				if len(recs) == 0 {
					t.Fatalf("client %s has no audit records", prefix)
				}
				client := recs[0].(map[string]any)["client"]
				for _, r := range recs {
					r := r.(map[string]any)
					if id, _ := r["client_request_id"].(string); !strings.HasPrefix(id, prefix) || r["client"] != client {
						t.Errorf("client %s sees record %v", prefix, r)
					}
				}
			}
		})
		t.Run("no key stored or logged", func(t *testing.T) {
			var rows []map[string]any
			if err := az.db.NewRaw("SELECT * FROM rolegate_audit").Scan(context.Background(), &rows); err != nil {
				t.Fatal(err)
			}
			dump, _ := json.Marshal(rows)
			text := strings.ToLower(string(dump) + logs.String())
			for _, k := range []string{keyA, keyB} {
				if strings.Contains(text, k) || strings.Contains(text, strings.ReplaceAll(k, "-", "")) {
					t.Errorf("a client key appears in the audit table or the logs")
				}
			}
			// A's four and B's three no-op deletes; B's refusals are not
			// recorded, its namespace holding nothing.
			if len(rows) < 7 {
				t.Errorf("only %d audit rows", len(rows))
			}
		})
	})
}
