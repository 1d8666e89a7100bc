package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/storage/storagetest"
)

func init() { gin.SetMode(gin.TestMode) }

// server is a real rolegate on loopback: authz.Open on a test store,
// mounted on a gin engine as the README recommends, served by httptest.
type server struct {
	url string
	az  *authz.Authz
}

func startServer(t testing.TB, target storagetest.Target) *server {
	t.Helper()
	cfg := authz.DefaultConfig()
	cfg.DatabaseType = target.Config.Type
	cfg.PostgreSQLURL = target.Config.PostgreSQLURL
	cfg.SQLitePath = target.Config.SQLitePath
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	// Open mode (no admin keys) bounds each client's writes and reads in
	// flight against strangers; this client is the test's own and faster.
	cfg.OpenWritesPerSecond, cfg.MaxReadsInFlight = 1_000_000, 1<<20
	cfg.MaxRowsPerClient = 1 << 20 // BenchmarkPolicyApply10000Grants stores 10,100 rows
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	az, err := authz.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { az.Close() })
	e := gin.New()
	e.UseRawPath = true
	e.UnescapePathValues = true
	e.NoRoute(az.NotFoundHandler())
	if err := az.Mount(e); err != nil {
		t.Fatalf("Mount: %v", err)
	}
	ts := httptest.NewServer(e)
	t.Cleanup(ts.Close)
	return &server{url: ts.URL, az: az}
}

// result is one in-process run of the command.
type result struct {
	code           int
	stdout, stderr string
}

// ctl runs rolegatectl in process against url with key in ROLEGATE_KEY.
func ctl(t testing.TB, url, key string, args ...string) result {
	t.Helper()
	return ctlIn(t, url, key, "", args...)
}

func ctlIn(t testing.TB, url, key, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	envs := map[string]string{"ROLEGATE_KEY": key}
	full := append([]string{"--url", url}, args...)
	code := run(full, env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(k string) string { return envs[k] }})
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// must runs the command and fails the test unless it exits with want.
func must(t *testing.T, want int, url, key string, args ...string) result {
	t.Helper()
	r := ctl(t, url, key, args...)
	if r.code != want {
		t.Fatalf("rolegatectl %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
	}
	return r
}

// jsonOut runs the command with -o json and decodes its output.
func jsonOut(t *testing.T, url, key string, dst any, args ...string) {
	t.Helper()
	r := must(t, 0, url, key, append([]string{"-o", "json"}, args...)...)
	if err := json.Unmarshal([]byte(r.stdout), dst); err != nil {
		t.Fatalf("rolegatectl %s: output is not JSON: %v\n%s", strings.Join(args, " "), err, r.stdout)
	}
}

func newKey() string { return uuid.NewString() }

func writeFile(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// openAPIDoc fetches the server's OpenAPI document.
func openAPIDoc(t *testing.T, url string) map[string]any {
	t.Helper()
	a := &api{base: url, hc: http.DefaultClient}
	if err := a.requireFeature(t.Context(), feature{what: "anything", present: func(map[string]any) bool { return true }}); err != nil {
		t.Fatal(err)
	}
	return a.doc
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
