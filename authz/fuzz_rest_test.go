package authz

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// FuzzRESTRouter sends arbitrary methods, paths, client-key headers and
// bodies through a mounted engine on a real SQLite store. Whatever comes
// in, rolegate never answers 5xx (the store is up), never panics, and
// every answer under /api is an envelope.
func FuzzRESTRouter(f *testing.F) {
	key := "6f1c2e9a-3b4d-4c5e-9f60-718293a4b5c6"
	for _, s := range []struct{ method, path, auth, body string }{
		{"GET", "/api/roles", "Bearer " + key, ""},
		{"POST", "/api/role/editor", "Bearer " + key, `{"description":"x"}`},
		{"POST", "/api/role/a%00b", "Bearer " + key, ""},
		{"POST", "/api/role/a%2Fb", "Bearer " + key, ""},
		{"POST", "/api/role/%2e%2e", "Bearer " + key, ""},
		{"POST", "/api/permission/editor/'; DROP TABLE x; --", "Bearer " + key, ""},
		{"GET", "/api/has_permission/<script>/edit", "Bearer " + key, ""},
		{"DELETE", "/api/membership/sara/editor", "bearer " + strings.ToUpper(key), ""},
		{"POST", "/api/role/x", "Bearer 00000000-0000-0000-0000-000000000000", "{"},
		{"GET", "/api/members/editor?limit=-1&after=%ff", "Bearer " + key, ""},
		{"GET", "/api/audit?limit=99999999999999999999", "Bearer " + key, ""},
		{"PATCH", "/api/roles", "", ""},
		{"GET", "/ping", "", ""},
		{"GET", "/api/../../etc/passwd", "Basic Zm9vOmJhcg==", ""},
	} {
		f.Add(s.method, s.path, s.auth, s.body)
	}
	az := openTarget(f, storagetest.SQLite(f), nil)
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.UseRawPath, r.UnescapePathValues, r.HandleMethodNotAllowed = true, true, true
	// As Mount's documentation recommends for an API: no silent redirects
	// (a POST to "/api/role//" would answer 307 with no envelope).
	r.RedirectTrailingSlash, r.RedirectFixedPath = false, false
	if err := az.Mount(r); err != nil {
		f.Fatal(err)
	}
	r.NoRoute(az.NotFoundHandler())
	r.NoMethod(az.MethodNotAllowedHandler())
	methods := map[string]bool{"GET": true, "POST": true, "DELETE": true, "PUT": true, "PATCH": true, "OPTIONS": true, "HEAD": true}

	f.Fuzz(func(t *testing.T, method, path, auth, body string) {
		if !methods[method] {
			method = "GET"
		}
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		req, err := http.NewRequest(method, "http://rolegate"+path, strings.NewReader(body))
		if err != nil {
			return // not a request a server could receive
		}
		if auth != "" {
			req.Header["Authorization"] = []string{auth}
		}
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("%s %q answered %d: %s", method, path, w.Code, w.Body)
		}
		if strings.HasPrefix(req.URL.Path, "/api/") && !strings.HasPrefix(req.URL.Path, "/api/ping") &&
			!strings.HasPrefix(req.URL.Path, "/api/test") && method != "OPTIONS" && method != "HEAD" {
			if !strings.Contains(w.Body.String(), `"success":`) {
				t.Fatalf("%s %q answered %d without an envelope: %q", method, path, w.Code, w.Body)
			}
		}
	})
}
