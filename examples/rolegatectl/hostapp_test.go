package main

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAgainstHostapp is the "done when" on the example app: it
// builds examples/hostapp, starts it on a free port with a fresh SQLite
// file, and runs the CLI against it: a policy applied, diffed (empty),
// exported (equal), a Casbin policy imported, and a backup restored into a
// fresh namespace with identical lists.
func TestAgainstHostapp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the host app")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "hostapp")
	// In the library's module, whose go.mod has what the host app needs
	// (this module's has the CLI's).
	build := exec.Command("go", "build", "-o", bin, "./examples/hostapp")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build hostapp: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	// The admin plane is closed: the fresh namespace the backup is restored
	// into is a second admin key.
	key, fresh := newKey(), newKey()
	app := exec.Command(bin)
	app.Dir = dir
	app.Env = append(os.Environ(), "AUTH_CLIENT_KEY="+key, "AUTH_CLIENT_KEYS="+fresh, "AUTH_SQLITE_PATH="+filepath.Join(dir, "auth.sqlite3"),
		"AUTH_SERVER_PORT="+itoa(int64(port)), "AUTH_DATABASE_URL=", "AUTH_DATABASE_TYPE=sqlite")
	var logs strings.Builder
	app.Stdout, app.Stderr = &logs, &logs
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = app.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = app.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = app.Process.Kill()
		}
	})
	url := "http://127.0.0.1:" + itoa(int64(port))
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(url + "/ping")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("hostapp did not come up:\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}

	must(t, 0, url, key, "policy", "apply", "-f", writeFile(t, "p.yaml", cliPolicy))
	if r := must(t, 0, url, key, "policy", "diff", "-f", writeFile(t, "p.yaml", cliPolicy)); strings.TrimSpace(r.stdout) != "no changes" {
		t.Errorf("diff after apply: %q", r.stdout)
	}
	if r := must(t, 0, url, key, "policy", "export"); r.stdout != cliPolicy {
		t.Errorf("export:\n%s", r.stdout)
	}
	must(t, 0, url, key, "import", "casbin", "--policy", fixtures+"rbac_policy.csv")
	must(t, 0, url, key, "check", "alice", "data2:write")
	must(t, 1, url, key, "check", "bob", "data2:read")

	users := []string{"alice", "bob"}
	perms := []string{"read", "edit", "delete", "data1:read", "data2:read", "data2:write"}
	before := everyList(t, url, key, users, perms)
	file := filepath.Join(t.TempDir(), "b.json")
	must(t, 0, url, key, "backup", "-f", file)
	must(t, 0, url, fresh, "restore", "-f", file, "--yes")
	after := everyList(t, url, fresh, users, perms)
	for k, v := range before {
		if !equalJSON(v, after[k]) {
			t.Errorf("%s: before %v, after %v", k, v, after[k])
		}
	}
}
