package middleware

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestLogger(t *testing.T) {
	tests := []struct {
		name       string
		method     string
		path       string
		wantPath   string
		wantStatus float64
		wantLevel  string
	}{
		{"a write logs its pattern at info", http.MethodPost, "/api/membership/sara/chef?token=s3cret", "/api/membership/:user/:group", 200, "INFO"},
		{"a read that went well logs at debug", http.MethodGet, "/api/membership/sara/chef?token=s3cret", "/api/membership/:user/:group", 200, "DEBUG"},
		{"unmatched logs a placeholder at info", http.MethodGet, "/api/nope/sara?token=s3cret", "(unmatched)", 404, "INFO"},
		{"5xx logs at error", http.MethodGet, "/fail", "/fail", 503, "ERROR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, buf := captureLog()
			r := gin.New()
			r.Use(RequestID(), Logger(l))
			r.GET("/api/membership/:user/:group", func(c *gin.Context) { Respond(c, 200, "ok", true) })
			r.POST("/api/membership/:user/:group", func(c *gin.Context) { Respond(c, 200, "ok", true) })
			r.GET("/fail", func(c *gin.Context) { Fail(c, 503, "", "down") })
			w := performRequest(r, tt.method, tt.path, strings.NewReader("body-secret"),
				"Authorization", "Bearer "+validKey, "X-Request-ID", "req-1")
			lines := logLines(t, buf)
			if len(lines) != 1 {
				t.Fatalf("want one line, got %d: %s", len(lines), buf)
			}
			line := lines[0]
			if line["msg"] != "request" || line["level"] != tt.wantLevel || line["method"] != tt.method ||
				line["path"] != tt.wantPath || line["status"] != tt.wantStatus ||
				line["request_id"] != w.Header().Get(HeaderRequestID) || line["client_request_id"] != "req-1" {
				t.Errorf("log line = %v", line)
			}
			if int(tt.wantStatus) != w.Code {
				t.Errorf("response status %d", w.Code)
			}
			if d, ok := line["duration"].(float64); !ok || d <= 0 {
				t.Errorf("duration = %v", line["duration"])
			}
			for _, leak := range []string{validKey, "s3cret", "sara", "chef", "body-secret", "Authorization"} {
				if strings.Contains(buf.String(), leak) {
					t.Errorf("log leaks %q: %s", leak, buf)
				}
			}
		})
	}
}

func TestLoggerNilUsesDefault(t *testing.T) {
	buf := quietDefaultLog(t)
	r := newTestRouter(Logger(nil))
	if w := performRequest(r, http.MethodPost, "/ok", nil); w.Code != http.StatusOK {
		t.Fatalf("status %d", w.Code)
	}
	if lines := logLines(t, buf); len(lines) != 1 || lines[0]["path"] != "/ok" {
		t.Errorf("default logger got %v", lines)
	}
}

// TestLoggerOneLinePerRequest: behind the host's gin.Logger (gin.Default),
// rolegate's own request line drops to Debug, so the request is logged
// once at the default level; without it, rolegate's line stays at Info.
func TestLoggerOneLinePerRequest(t *testing.T) {
	for name, tc := range map[string]struct {
		hostLogger bool
		wantLevel  string
	}{
		"host logs too": {true, "DEBUG"},
		"only rolegate": {false, "INFO"},
	} {
		t.Run(name, func(t *testing.T) {
			l, buf := captureLog()
			r := gin.New()
			if tc.hostLogger {
				r.Use(gin.LoggerWithWriter(io.Discard))
			}
			r.POST("/x", Logger(l), func(c *gin.Context) { c.Status(200) })
			for range 2 { // the second answer comes from the remembered chain
				performRequest(r, http.MethodPost, "/x", nil)
			}
			lines := logLines(t, buf)
			if len(lines) != 2 {
				t.Fatalf("%d lines for 2 requests", len(lines))
			}
			for _, line := range lines {
				if line["level"] != tc.wantLevel {
					t.Errorf("level %v, want %s", line["level"], tc.wantLevel)
				}
			}
		})
	}
}
