package main

import (
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestReadmeAdoption is what a new adopter does with the README: copy the
// "Adopting it in your app" main.go into a fresh module, build it against
// this checkout (a replace directive), run it,
// grant a user through the REST API it mounts, and call its guarded
// route. A granted user gets 200; a refused one gets the app's own error
// body, with rolegate's status; a request naming the user twice has no
// user (the resolver refuses repeated headers). A second copy started on
// the port the first holds exits with a non-zero status, saying why.
func TestReadmeAdoption(t *testing.T) {
	src := readmeAdoptionMain(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("main.go", src)
	// The adopter's module requires what the checkout requires, so its
	// build list is the checkout's: the build fetches at most the go.mod
	// files of modules the checkout's own build skipped. (go mod tidy would
	// also want the test dependencies of gin's and sqlite's own tests, some
	// of which the module proxy here refuses.)
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	requires := string(mod)[strings.Index(string(mod), "require"):]
	write("go.mod", "module adopter\n\ngo 1.25\n\nrequire github.com/rolegate/rolegate v0.0.0\n\n"+requires+
		"\nreplace github.com/rolegate/rolegate => "+root+"\n")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", string(sum))
	goCmd := func(args ...string) {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	goCmd("build", "-o", "adopter", ".")

	port, key := freePort(t), uuid.NewString()
	app := exec.Command(filepath.Join(dir, "adopter"))
	app.Dir = dir
	app.Env = append(os.Environ(), "AUTH_CLIENT_KEY="+key, "AUTH_SERVER_PORT="+port,
		"AUTH_SQLITE_PATH="+filepath.Join(dir, "auth.sqlite3"), "AUTH_DATABASE_URL=", "AUTH_DATABASE_TYPE=sqlite")
	var logs strings.Builder
	app.Stdout, app.Stderr = &logs, &logs
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		app.Process.Kill()
		app.Wait()
	})
	base := "http://127.0.0.1:" + port
	waitUp(t, base+"/auth/ping", &logs)

	for _, path := range []string{"/auth/api/role/reader", "/auth/api/permission/reader/read", "/auth/api/membership/sara/reader"} {
		if code, body := call(t, http.MethodPost, base+path, "Authorization", "Bearer "+key); code != http.StatusCreated {
			t.Fatalf("POST %s: %d %s", path, code, body)
		}
	}
	if code, body := call(t, http.MethodGet, base+"/notes", "X-User", "sara"); code != 200 || !strings.Contains(body, `"user":"sara"`) {
		t.Errorf("granted user: %d %s, want 200 naming sara", code, body)
	}
	if code, body := call(t, http.MethodGet, base+"/notes", "X-User", "jack"); code != 403 || body != `{"errors":{"auth":"insufficient permissions"}}` {
		t.Errorf("refused user: %d %s, want 403 in the app's own shape", code, body)
	}
	if code, body := call(t, http.MethodGet, base+"/notes"); code != 401 || body != `{"errors":{"auth":"authentication required"}}` {
		t.Errorf("no user: %d %s, want 401 in the app's own shape", code, body)
	}
	if code, body := callHeaders(t, http.MethodGet, base+"/notes", http.Header{"X-User": {"sara", "jack"}}); code != 401 {
		t.Errorf("X-User twice: %d %s, want 401 (the first of two headers is no user)", code, body)
	}

	// The port is taken: a second copy must fail, not exit 0.
	second := exec.Command(filepath.Join(dir, "adopter"))
	second.Dir = dir
	second.Env = append(app.Env[:len(app.Env):len(app.Env)], "AUTH_SQLITE_PATH="+filepath.Join(dir, "second.sqlite3"))
	done := make(chan struct{})
	var out []byte
	var runErr error
	go func() { out, runErr = second.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		second.Process.Kill()
		t.Fatal("a second copy on a taken port still runs after 60 s")
	}
	var exit *exec.ExitError
	if !errors.As(runErr, &exit) || exit.ExitCode() == 0 || !strings.Contains(string(out), "address already in use") {
		t.Errorf("a second copy on a taken port: %v, want a non-zero exit naming the address in use:\n%s", runErr, out)
	}
	if !strings.Contains(logs.String(), "rolegate opened") {
		t.Errorf("no startup line in the app's log:\n%s", logs.String())
	}
}

var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

func readmeAdoptionMain(t *testing.T) string {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "## Adopting it in your app")
	if i < 0 {
		t.Fatal("README has no adoption section")
	}
	m := goBlock.FindStringSubmatch(s[i:])
	if m == nil || !strings.HasPrefix(m[1], "package main") {
		t.Fatal("the adoption section has no complete main.go")
	}
	return m[1]
}

func call(t *testing.T, method, url string, header ...string) (int, string) {
	t.Helper()
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	return callHeaders(t, method, url, h)
}

func callHeaders(t *testing.T, method, url string, h http.Header) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = h
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}
