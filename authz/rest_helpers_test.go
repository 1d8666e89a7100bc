package authz

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// testRoute is a client-key route of rest.Table, as the tests walk them.
type testRoute struct {
	method, path string
	params       []struct{ name, kind string }
}

// restRoutes are the client-key routes Mount registers (rest.Table).
func restRoutes() []testRoute {
	var out []testRoute
	for _, rt := range rest.Table() {
		tr := testRoute{method: rt.Method, path: rt.Path}
		for _, p := range rt.Params {
			tr.params = append(tr.params, struct{ name, kind string }{p.Name, p.Kind})
		}
		out = append(out, tr)
	}
	return out
}

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden from the responses")

func init() { gin.SetMode(gin.TestMode) }

// logBuffer collects every log line of an Authz, for tests that check what
// is (not) logged.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// openREST opens rolegate on target with its logs captured.
func openREST(t *testing.T, target storagetest.Target, mod func(*Config)) (*Authz, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	az := openTarget(t, target, func(c *Config) {
		c.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		if mod != nil {
			mod(c)
		}
	})
	return az, logs
}

// forEachRESTStore runs fn on SQLite and PostgreSQL with a fresh store.
func forEachRESTStore(t *testing.T, fn func(t *testing.T, target storagetest.Target, az *Authz, logs *logBuffer)) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, logs := openREST(t, target, nil)
		fn(t, target, az, logs)
	})
}

// newTestRouter is a host engine set up as mount.go recommends (raw paths,
// opt-in 404 and 405 envelopes) with rolegate mounted at prefix ("" for the
// root).
func newTestRouter(t testing.TB, az *Authz, prefix string) *gin.Engine {
	t.Helper()
	e := gin.New()
	e.UseRawPath = true
	e.UnescapePathValues = true
	e.HandleMethodNotAllowed = true
	e.NoRoute(az.NotFoundHandler())
	e.NoMethod(az.MethodNotAllowedHandler())
	var r gin.IRouter = e
	if prefix != "" {
		r = e.Group(prefix)
	}
	if err := az.Mount(r); err != nil {
		t.Fatalf("Mount: %v", err)
	}
	return e
}

// performRequest serves one request. A non-empty key is sent as the
// Bearer client key; headers are name, value pairs.
func performRequest(e http.Handler, method, target, key string, body io.Reader, headers ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, body)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	e.ServeHTTP(w, req)
	return w
}

// checkEnvelope asserts the status and the envelope of a response: exactly
// the fields of DESIGN.md, code equal to the status, success matching it,
// a message, and a timestamp in RFC 3339 UTC with fractional seconds. It
// returns the decoded body.
func checkEnvelope(t testing.TB, w *httptest.ResponseRecorder, want int) map[string]any {
	t.Helper()
	if w.Code != want {
		t.Fatalf("status = %d, want %d; body %s", w.Code, want, w.Body.String())
	}
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type = %q, want application/json", ct)
	}
	var body map[string]any
	dec := json.NewDecoder(bytes.NewReader(w.Body.Bytes()))
	dec.UseNumber()
	if err := dec.Decode(&body); err != nil {
		t.Fatalf("body is not a JSON object: %v; %s", err, w.Body.String())
	}
	success := want < 400
	wantKeys := []string{"code", "message", "success", "timestamp", "data"}
	if !success {
		wantKeys[4] = "error"
	}
	if len(body) != len(wantKeys) {
		t.Fatalf("envelope fields = %v, want %v", keys(body), wantKeys)
	}
	for _, k := range wantKeys {
		if _, ok := body[k]; !ok {
			t.Fatalf("envelope lacks %q: %s", k, w.Body.String())
		}
	}
	if body["success"] != success {
		t.Errorf("success = %v, want %v", body["success"], success)
	}
	if code, _ := body["code"].(json.Number).Int64(); int(code) != want {
		t.Errorf("code = %v, want %d", body["code"], want)
	}
	if m, _ := body["message"].(string); m == "" {
		t.Errorf("message is empty")
	}
	if !success {
		if e, _ := body["error"].(string); e == "" {
			t.Errorf("error detail is empty")
		}
	}
	checkTimestamp(t, body["timestamp"])
	return body
}

var fractional = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$`)

func checkTimestamp(t testing.TB, v any) {
	t.Helper()
	ts, _ := v.(string)
	at, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil || !fractional.MatchString(ts) {
		t.Fatalf("timestamp %q is not RFC 3339 UTC with fractional seconds (%v)", ts, err)
	}
	if d := time.Since(at); d < -time.Minute || d > time.Minute {
		t.Errorf("timestamp %q is not now", ts)
	}
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// normalise replaces what differs from run to run (timestamps, audit ids,
// client fingerprints, our request ids, a key's actor) with placeholders.
func normalise(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			switch k {
			case "timestamp", "at", "id", "client", "request_id":
				out[k] = "<" + k + ">"
			case "actor":
				if a, ok := e.(string); ok && strings.HasPrefix(a, "key:") {
					out[k] = "key:<8 hex digits of the key's SHA-256>"
				} else {
					out[k] = e
				}
			default:
				out[k] = normalise(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalise(e)
		}
		return out
	}
	return v
}

// checkGolden compares the normalised body with testdata/golden/name.json,
// or rewrites that file under -update.
func checkGolden(t testing.TB, name string, body map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(normalise(body)); err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (run go test ./authz -run %s -update)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("body differs from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// serve serves a prepared request.
func serve(e http.Handler, req *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	e.ServeHTTP(w, req)
	return w
}
