package main

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestReadmeCLIQuickStart runs the README's "CLI quick start" block as a
// new user would, from the checkout's root, against examples/hostapp
// started as the walkthrough starts it: install the CLI (into a folder of
// the test's own), then every command, each of which must exit 0. Only the
// port, and the file the export writes, differ.
func TestReadmeCLIQuickStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the host app")
	}
	block := readmeCLIBlock(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "hostapp")
	build := exec.Command("go", "build", "-o", bin, "./examples/hostapp")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build hostapp: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := itoa(int64(l.Addr().(*net.TCPAddr).Port))
	l.Close()
	key := newKey()
	env := append(os.Environ(), "AUTH_CLIENT_KEY="+key, "AUTH_SQLITE_PATH="+filepath.Join(dir, "auth.sqlite3"),
		"AUTH_SERVER_PORT="+port, "AUTH_DATABASE_URL=", "AUTH_DATABASE_TYPE=sqlite", "AUTH_CLIENT_KEYS=")
	app := exec.Command(bin, "-user-header", "X-User")
	app.Dir = dir
	app.Env = env
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
	url := "http://127.0.0.1:" + port
	waitPing(t, url, &logs)

	script := strings.ReplaceAll(block, "127.0.0.1:8000", "127.0.0.1:"+port)
	script = regexp.MustCompile(`-f policy\.yaml`).ReplaceAllString(script, "-f "+filepath.Join(dir, "policy.yaml"))
	gobin := filepath.Join(dir, "bin")
	sh := exec.Command("bash", "-c", "set -euo pipefail\n"+script)
	sh.Dir = root
	sh.Env = append(env, "GOBIN="+gobin, "PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"ROLEGATE_URL=", "ROLEGATE_KEY=", "ROLEGATE_AT_LEAST=")
	out, err := sh.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's CLI quick start: %v\n%s\n%s", err, out, logs.String())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "policy.yaml")); err != nil || !strings.Contains(string(b), "name: editor") {
		t.Errorf("policy export wrote %q, %v", b, err)
	}
	// The example policy was applied: bob, one of its members, reads.
	var answer struct {
		Data struct {
			Result bool `json:"result"`
		} `json:"data"`
	}
	req, _ := http.NewRequest(http.MethodGet, url+"/api/has_permission/bob/read", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil || !answer.Data.Result {
		t.Errorf("bob reads after the example policy was applied: %v, %v\n%s", answer.Data.Result, err, out)
	}
}

// readmeCLIBlock is the sh block of the README's "CLI quick start".
func readmeCLIBlock(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "## CLI quick start")
	if i < 0 {
		t.Fatal("the README has no CLI quick start")
	}
	m := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(s[i:])
	if m == nil || !strings.Contains(m[1], "rolegatectl") {
		t.Fatal("the CLI quick start has no sh block")
	}
	return m[1]
}

func waitPing(t *testing.T, url string, logs *strings.Builder) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(url + "/ping")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("hostapp did not come up:\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestInstallLines: while this module replaces the library with the
// checkout around it, `go install …/rolegatectl@version` cannot build it;
// every install command the docs show installs from a checkout, as the
// README's does.
func TestInstallLines(t *testing.T) {
	root := filepath.Join("..", "..")
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(root, "README.md"), filepath.Join(root, "examples", "README.md"))
	found := 0
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if !strings.Contains(line, "go install") || !strings.Contains(line, "rolegatectl") {
				continue
			}
			found++
			if strings.Contains(line, "@") || !strings.Contains(line, "go install .") {
				t.Errorf("%s: %q does not install from a checkout", page, strings.TrimSpace(line))
			}
		}
	}
	if found == 0 {
		t.Error("no page shows how to install rolegatectl")
	}
}
