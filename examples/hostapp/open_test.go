package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// hostappBinary builds the host app into a temporary folder.
func hostappBinary(t *testing.T) (bin, dir string) {
	t.Helper()
	dir = t.TempDir()
	bin = filepath.Join(dir, "hostapp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin, dir
}

// stopAtCleanup interrupts the started app when the test ends, and kills
// it if it has not exited within grace.
func stopAtCleanup(t *testing.T, app *exec.Cmd, grace time.Duration) {
	t.Cleanup(func() {
		app.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- app.Wait() }()
		select {
		case <-done:
		case <-time.After(grace):
			app.Process.Kill()
		}
	})
}

// environWithout is os.Environ without the named variables.
func environWithout(names ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			drop = drop || name == n
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// `hostapp -open` serves the REST API to any UUID v4 key, says so at
// startup with the bounds in force, holds each client to its write rate
// (429 with Retry-After), and leaves out the guarded routes.
func TestHostappOpenMode(t *testing.T) {
	bin, dir := hostappBinary(t)
	port := freePort(t)
	app := exec.Command(bin, "-open")
	app.Env = append(environWithout("AUTH_CLIENT_KEY", "AUTH_CLIENT_KEYS"),
		"AUTH_SQLITE_PATH="+filepath.Join(dir, "auth.sqlite3"), "AUTH_SERVER_PORT="+port,
		"AUTH_DATABASE_URL=", "AUTH_DATABASE_TYPE=sqlite", "AUTH_OPEN_WRITES_PER_SECOND=1")
	app.Dir = dir
	var logs strings.Builder
	app.Stdout, app.Stderr = &logs, &logs
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	stopAtCleanup(t, app, 10*time.Second)
	base := "http://127.0.0.1:" + port
	waitUp(t, base+"/ping", &logs)

	// At 1 write a second in bursts of 2, one stranger's writes meet a
	// 429 within a few, however slow this machine is.
	key := uuid.NewString()
	start, created, limited := time.Now(), 0, false
	for i := 0; i < 50 && !limited; i++ {
		req, _ := http.NewRequest(http.MethodPost, base+"/api/role/r"+strconv.Itoa(i), nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusCreated:
			created++
		case http.StatusTooManyRequests:
			limited = true
			if ra := resp.Header.Get("Retry-After"); ra != "1" {
				t.Errorf("429 with Retry-After %q, want 1", ra)
			}
		default:
			t.Fatalf("write %d with a stranger's key: %d", i, resp.StatusCode)
		}
	}
	if allowed := 2 + int(time.Since(start).Seconds()) + 1; !limited || created > allowed {
		t.Errorf("%d writes created before a 429 (limited: %v), want at most %d", created, limited, allowed)
	}
	if code, body := call(t, http.MethodGet, base+"/"); code != http.StatusOK || !strings.Contains(body, `"mode":"open"`) {
		t.Errorf("GET / = %d %s", code, body)
	}
	if code, _ := call(t, http.MethodGet, base+"/notes"); code != http.StatusNotFound {
		t.Errorf("GET /notes = %d, want 404 (guarded routes left out)", code)
	}
	out := logs.String()
	for _, want := range []string{"open mode", "rows_per_client=10000", "namespaces=100", "writes_per_second=1", "reads_in_flight=4", "audit_max_records=1000000"} {
		if !strings.Contains(out, want) {
			t.Errorf("startup log lacks %q:\n%s", want, out)
		}
	}
}

// -open with an admin key set is refused with one clear line.
func TestHostappOpenRefusesAdminKeys(t *testing.T) {
	bin, dir := hostappBinary(t)
	app := exec.Command(bin, "-open")
	app.Env = append(environWithout("AUTH_CLIENT_KEYS"), "AUTH_CLIENT_KEY="+uuid.NewString(),
		"AUTH_SQLITE_PATH="+filepath.Join(dir, "auth.sqlite3"), "AUTH_SERVER_PORT="+freePort(t),
		"AUTH_DATABASE_URL=", "AUTH_DATABASE_TYPE=sqlite")
	app.Dir = dir
	out, err := app.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "unset both to run in open mode") {
		t.Fatalf("hostapp -open with AUTH_CLIENT_KEY: err %v, output:\n%s", err, out)
	}
}
