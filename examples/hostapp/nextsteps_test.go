package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// `go run ./examples/hostapp` on a fresh machine says what to do next, as
// examples/minimal does: the line that exports the key it made, a curl
// line that works with it, and the console's URL. The test runs those
// lines as printed.
func TestHostappPrintsNextSteps(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl not installed")
	}
	bin, dir := hostappBinary(t)
	port := freePort(t)
	app := exec.Command(bin)
	app.Env = append(environWithout("AUTH_CLIENT_KEY", "AUTH_CLIENT_KEYS"),
		"AUTH_SQLITE_PATH="+filepath.Join(dir, "it's here", "auth.sqlite3"), "AUTH_SERVER_PORT="+port,
		"AUTH_DATABASE_URL=", "AUTH_DATABASE_TYPE=sqlite")
	app.Dir = dir
	stdout, err := app.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	app.Stderr = &logs
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	stopAtCleanup(t, app, 10*time.Second)

	var export, curl, console string
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	timeout := time.After(30 * time.Second)
	for console == "" {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("hostapp ended before printing the console's URL (export %q, curl %q)\n%s", export, curl, logs.String())
			}
			line = strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(line, "export AUTH_CLIENT_KEY="):
				export = line
			case strings.HasPrefix(line, "curl "):
				curl = line
			case strings.HasPrefix(line, "admin console: "):
				console = line
			}
		case <-timeout:
			t.Fatalf("no next steps printed in 30 s\n%s", logs.String())
		}
	}
	go func() {
		for range lines {
		}
	}()
	if want := "http://127.0.0.1:" + port + "/console/"; !strings.Contains(console, want) {
		t.Errorf("console line %q, want %s", console, want)
	}
	if export == "" || curl == "" {
		t.Fatalf("no export line (%q) or no curl line (%q)", export, curl)
	}
	sh := exec.Command("bash", "-c", export+"\n"+curl)
	sh.Env = environWithout("AUTH_CLIENT_KEY")
	out, err := sh.CombinedOutput()
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "200") || !strings.Contains(string(out), `"success":true`) {
		t.Errorf("%s\n%s\nanswered %v:\n%s", export, curl, err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "it's here", "auth.sqlite3.client-key")); err != nil {
		t.Errorf("the key file: %v", err)
	}
}
