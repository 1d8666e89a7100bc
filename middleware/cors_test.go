package middleware

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestCORSConfigErrors(t *testing.T) {
	tests := []struct {
		name    string
		origins []string
	}{
		{"no origins", nil},
		{"only blanks", []string{" ", ""}},
		{"star and explicit", []string{"*", "https://app.example"}},
		{"ftp scheme", []string{"ftp://app.example"}},
		{"no scheme", []string{"app.example"}},
		{"path", []string{"https://app.example/admin"}},
		{"query", []string{"https://app.example?x=1"}},
		{"userinfo", []string{"https://u:p@app.example"}},
		{"wildcard pattern", []string{"https://*.example.com"}},
		{"regexp entry", []string{"/.*/"}},
		{"bad port", []string{"https://app.example:port"}},
		{"space inside", []string{"https://app example"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := CORS(CORSConfig{Enabled: true, Origins: tt.origins})
			if err == nil || h != nil {
				t.Errorf("CORS(%q) = %v, %v; want an error", tt.origins, h != nil, err)
			}
		})
	}
}

func TestCORS(t *testing.T) {
	const app = "https://app.example"
	tests := []struct {
		name        string
		cfg         CORSConfig
		method      string
		origin      string
		wantStatus  int
		wantAllow   string // Access-Control-Allow-Origin
		wantCreds   string // Access-Control-Allow-Credentials
		wantEnvelop bool
	}{
		{"disabled ignores origin", CORSConfig{Enabled: false, Origins: []string{"*"}}, "GET", "https://evil.example", 200, "", "", false},
		{"disabled ignores bad config", CORSConfig{Enabled: false, Origins: []string{"ftp://x"}}, "GET", app, 200, "", "", false},
		{"star any origin", CORSConfig{Enabled: true, Origins: []string{"*"}}, "GET", "https://evil.example", 200, "*", "", false},
		{"star no credentials on preflight", CORSConfig{Enabled: true, Origins: []string{" * "}}, "OPTIONS", app, 204, "*", "", false},
		{"explicit allowed with credentials", CORSConfig{Enabled: true, Origins: []string{app}}, "GET", app, 200, app, "true", false},
		{"explicit trailing slash and spaces", CORSConfig{Enabled: true, Origins: []string{" https://app.example/ ", "http://localhost:3000"}}, "GET", app, 200, app, "true", false},
		{"explicit second origin", CORSConfig{Enabled: true, Origins: []string{app, "http://localhost:3000"}}, "GET", "http://localhost:3000", 200, "http://localhost:3000", "true", false},
		{"explicit preflight", CORSConfig{Enabled: true, Origins: []string{app}}, "OPTIONS", app, 204, app, "true", false},
		{"foreign origin refused with envelope", CORSConfig{Enabled: true, Origins: []string{app}}, "GET", "https://evil.example", 403, "", "", true},
		{"foreign preflight refused", CORSConfig{Enabled: true, Origins: []string{app}}, "OPTIONS", "https://evil.example", 403, "", "", true},
		{"null origin refused", CORSConfig{Enabled: true, Origins: []string{app}}, "GET", "null", 403, "", "", true},
		{"same host is not cors", CORSConfig{Enabled: true, Origins: []string{app}}, "GET", "http://example.com", 200, "", "", false},
		{"no origin is not cors", CORSConfig{Enabled: true, Origins: []string{app}}, "GET", "", 200, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mw, err := CORS(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := newTestRouter(mw)
			r.OPTIONS("/ok", func(c *gin.Context) { c.Status(http.StatusOK) })
			headers := []string{}
			if tt.origin != "" {
				headers = append(headers, "Origin", tt.origin)
			}
			if tt.method == http.MethodOptions {
				headers = append(headers, "Access-Control-Request-Method", "POST",
					"Access-Control-Request-Headers", "authorization,x-api-key")
			}
			w := performRequest(r, tt.method, "/ok", nil, headers...)
			if tt.wantEnvelop {
				assertError(t, w, http.StatusForbidden, "Forbidden", "origin not allowed")
			} else if w.Code != tt.wantStatus {
				t.Fatalf("status %d, want %d", w.Code, tt.wantStatus)
			}
			if got := w.Header().Get("Access-Control-Allow-Origin"); got != tt.wantAllow {
				t.Errorf("Allow-Origin = %q, want %q", got, tt.wantAllow)
			}
			if got := w.Header().Get("Access-Control-Allow-Credentials"); got != tt.wantCreds {
				t.Errorf("Allow-Credentials = %q, want %q", got, tt.wantCreds)
			}
			if tt.method == http.MethodGet && tt.wantAllow != "" {
				// What a script of the origin may read: the request id and
				// the total of a list route, the revision token, Retry-After.
				exposed := strings.ToLower(w.Header().Get("Access-Control-Expose-Headers"))
				for _, h := range []string{"x-request-id", "www-authenticate", "x-total-count", "rolegate-revision", "retry-after"} {
					if !strings.Contains(exposed, h) {
						t.Errorf("Expose-Headers %q lacks %s", exposed, h)
					}
				}
			}
			if tt.method == http.MethodOptions && tt.wantStatus == http.StatusNoContent {
				headersAllowed := strings.ToLower(w.Header().Get("Access-Control-Allow-Headers"))
				for _, h := range []string{"authorization", "content-type", "x-api-key", "x-auth-token", "x-user-id", "x-request-id"} {
					if !strings.Contains(headersAllowed, h) {
						t.Errorf("Allow-Headers %q lacks %s", headersAllowed, h)
					}
				}
				if got := w.Header().Get("Access-Control-Allow-Methods"); got != "GET,POST,PUT,DELETE,OPTIONS" {
					t.Errorf("Allow-Methods = %q", got)
				}
			}
		})
	}
}
