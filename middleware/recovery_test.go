package middleware

import (
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestRecovery(t *testing.T) {
	const secret = "Bearer " + validKey
	tests := []struct {
		name       string
		handler    gin.HandlerFunc
		wantStatus int
		wantBody   bool // the 500 envelope
		wantLevel  string
	}{
		{"panic string", func(*gin.Context) { panic("db password is hunter2") }, 500, true, "ERROR"},
		{"panic error", func(*gin.Context) { panic(fmt.Errorf("boom at /etc/secret")) }, 500, true, "ERROR"},
		{"nil map write", func(*gin.Context) {
			var m map[string]int
			m["x"] = 1
		}, 500, true, "ERROR"},
		{"panic after writing", func(c *gin.Context) {
			c.String(http.StatusOK, "partial")
			panic("late")
		}, 200, false, "ERROR"},
		{"broken pipe", func(*gin.Context) { panic(fmt.Errorf("write: %w", syscall.EPIPE)) }, 200, false, "WARN"},
		{"connection reset", func(*gin.Context) { panic(fmt.Errorf("write: %w", syscall.ECONNRESET)) }, 200, false, "WARN"},
		{"no panic", func(c *gin.Context) { c.String(http.StatusOK, "fine") }, 200, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, buf := captureLog()
			r := gin.New()
			r.Use(RequestID(), RecoveryWithLogger(l))
			r.GET("/p/:id", tt.handler)
			w := performRequest(r, http.MethodGet, "/p/sara?token=abc", nil, "Authorization", secret)
			if tt.wantBody {
				assertError(t, w, http.StatusInternalServerError, "Internal Server Error", "internal error")
			} else if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d", w.Code, tt.wantStatus)
			}
			for _, leak := range []string{"hunter2", "/etc/secret", "goroutine", ".go:"} {
				if strings.Contains(w.Body.String(), leak) {
					t.Errorf("response leaks %q: %s", leak, w.Body)
				}
			}
			lines := logLines(t, buf)
			if tt.wantLevel == "" {
				if len(lines) != 0 {
					t.Errorf("logged %v without a panic", lines)
				}
				return
			}
			if len(lines) != 1 {
				t.Fatalf("want one log line, got %d: %s", len(lines), buf)
			}
			line := lines[0]
			if line["level"] != tt.wantLevel || line["method"] != "GET" || line["path"] != "/p/:id" ||
				line["request_id"] != w.Header().Get(HeaderRequestID) {
				t.Errorf("log line = %v", line)
			}
			if tt.wantLevel == "ERROR" && !strings.Contains(fmt.Sprint(line["stack"]), "recovery_test.go") {
				t.Errorf("log has no stack: %v", line)
			}
			for _, leak := range []string{validKey, "token=abc", "sara"} {
				if strings.Contains(buf.String(), leak) {
					t.Errorf("log leaks %q: %s", leak, buf)
				}
			}
		})
	}
}

func TestRecoveryRepanicsErrAbortHandler(t *testing.T) {
	l, buf := captureLog()
	r := gin.New()
	r.Use(RecoveryWithLogger(l))
	r.GET("/abort", func(*gin.Context) { panic(http.ErrAbortHandler) })
	defer func() {
		if rec := recover(); rec != http.ErrAbortHandler {
			t.Errorf("recovered %v, want http.ErrAbortHandler re-panicked", rec)
		}
		if buf.Len() != 0 {
			t.Errorf("ErrAbortHandler was logged: %s", buf)
		}
	}()
	performRequest(r, http.MethodGet, "/abort", nil)
	t.Error("ErrAbortHandler was swallowed")
}

func TestRecoveryDefaultLogger(t *testing.T) {
	buf := quietDefaultLog(t)
	r := newTestRouter(Recovery())
	r.GET("/boom", func(*gin.Context) { panic("boom") })
	w := performRequest(r, http.MethodGet, "/boom", nil)
	assertError(t, w, http.StatusInternalServerError, "Internal Server Error", "internal error")
	if lines := logLines(t, buf); len(lines) != 1 || lines[0]["msg"] != "panic recovered" {
		t.Errorf("default logger got %v", lines)
	}
}
