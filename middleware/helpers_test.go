package middleware

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

func TestMain(m *testing.M) {
	gin.SetMode(gin.TestMode)
	os.Exit(m.Run())
}

// newTestRouter returns an engine with the given middleware and a GET/POST
// /ok route answering 200 "ok" after them.
func newTestRouter(mw ...gin.HandlerFunc) *gin.Engine {
	r := gin.New()
	r.Use(mw...)
	ok := func(c *gin.Context) { c.String(http.StatusOK, "ok") }
	r.GET("/ok", ok)
	r.POST("/ok", ok)
	return r
}

// performRequest sends one request through r. headers may repeat a name by
// listing it twice in the pairs.
func performRequest(r http.Handler, method, path string, body io.Reader, headers ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, body)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	return w
}

// assertError checks status, content type and every field of the error
// envelope, including a timestamp that parses and is recent.
func assertError(t *testing.T, w *httptest.ResponseRecorder, status int, message, detail string) ErrorBody {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status = %d, want %d; body %s", w.Code, status, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	var b ErrorBody
	dec := json.NewDecoder(bytes.NewReader(w.Body.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		t.Fatalf("body %q is not an error envelope: %v", w.Body, err)
	}
	if b.Success || b.Code != status || b.Message != message || b.Error != detail {
		t.Errorf("envelope = %+v, want success=false code=%d message=%q error=%q", b, status, message, detail)
	}
	assertTimestamp(t, b.Timestamp)
	return b
}

func assertTimestamp(t *testing.T, ts string) {
	t.Helper()
	got, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		t.Fatalf("timestamp %q: %v", ts, err)
	}
	if len(ts) != len("2006-01-02T15:04:05.000000Z") || ts[len(ts)-1] != 'Z' {
		t.Errorf("timestamp %q is not fixed-width UTC", ts)
	}
	if d := time.Since(got); d < -time.Minute || d > time.Minute {
		t.Errorf("timestamp %q is not now", ts)
	}
}

// captureLog returns a JSON slog logger and the buffer it writes to.
func captureLog() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), &buf
}

// logLines decodes the JSON lines of buf.
func logLines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("log %q: %v", buf, err)
		}
		out = append(out, m)
	}
	return out
}

// quietDefaultLog points slog.Default at a buffer for one test, so that
// the nil-logger paths are exercised without writing to the test output.
func quietDefaultLog(t *testing.T) *bytes.Buffer {
	t.Helper()
	prev := slog.Default()
	l, buf := captureLog()
	slog.SetDefault(l)
	t.Cleanup(func() { slog.SetDefault(prev) })
	return buf
}

// mustNewGuard is NewGuard for a configuration the test knows is valid.
func mustNewGuard(cfg GuardConfig) gin.HandlerFunc {
	g, err := NewGuard(cfg)
	if err != nil {
		panic(err)
	}
	return g
}
