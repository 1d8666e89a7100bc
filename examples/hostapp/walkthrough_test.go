package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
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

// TestReadmeWalkthrough builds the host app, starts it as a process on a
// free port with a fresh SQLite file, and runs the curl commands of the
// README's walkthrough as written (only the port changed). Each prints
// its status last (-w '... %{http_code}\n'), as a reader sees it, and that
// is the status the README promises in its comment.
func TestReadmeWalkthrough(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl not installed")
	}
	steps := readmeSteps(t)
	if len(steps) < 8 {
		t.Fatalf("found only %d walkthrough commands in the README", len(steps))
	}
	// The app of the README's first command holds port 8000: the
	// walkthrough says to stop it, or its lines would talk to that app.
	if intro := readmeSection(t, "## Ten minutes"); !strings.Contains(intro, "Stop the app of `go run ./examples/hostapp`") {
		t.Error("the walkthrough does not say to stop the app of `go run ./examples/hostapp` first")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "hostapp")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	port := freePort(t)
	key := uuid.NewString()
	env := append(os.Environ(),
		"AUTH_CLIENT_KEY="+key,
		"AUTH_SQLITE_PATH="+filepath.Join(dir, "auth.sqlite3"),
		"AUTH_SERVER_PORT="+port,
		"AUTH_DATABASE_URL=", "AUTH_DATABASE_TYPE=sqlite",
	)
	app := exec.Command(bin, "-user-header", "X-User", "-admin-users")
	app.Env = env
	app.Dir = dir // no stray .env
	var logs strings.Builder
	app.Stdout, app.Stderr = &logs, &logs
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		app.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- app.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("hostapp did not stop cleanly on SIGINT: %v\n%s", err, logs.String())
			}
		case <-time.After(10 * time.Second):
			app.Process.Kill()
			t.Error("hostapp did not stop within 10s of SIGINT")
		}
	})
	base := "http://127.0.0.1:" + port
	waitUp(t, base+"/ping", &logs)

	for _, s := range steps {
		if s.want != "" && !strings.Contains(s.command, "%{http_code}\\n") {
			t.Errorf("%s\n  does not show the status its comment names (-w '%%{http_code}\\n')", s.command)
		}
		cmd := strings.ReplaceAll(s.command, "127.0.0.1:8000", "127.0.0.1:"+port)
		sh := exec.Command("bash", "-c", "set -e; K=\"Authorization: Bearer $AUTH_CLIENT_KEY\"; "+cmd)
		sh.Env = env // AUTH_CLIENT_KEY, as the README exports it
		out, err := sh.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
		// The status is what the line prints last.
		fields := strings.Fields(string(out))
		got := ""
		if len(fields) > 0 {
			got = fields[len(fields)-1]
		}
		if s.want != "" && got != s.want || s.want == "" && !strings.HasPrefix(got, "2") {
			t.Errorf("%s\n  printed %q, last %s; the README says %q", s.command, out, got, s.want)
		}
	}
	if want := `msg="admin console" url=` + base + "/console/"; !strings.Contains(logs.String(), want) {
		t.Errorf("hostapp did not log where the console is (%s):\n%s", want, logs.String())
	}
}

type step struct{ command, want string }

// curlLine is a walkthrough command: a curl line, or one that waits a few
// seconds first ("sleep 3; curl ...", a time bound passing).
var curlLine = regexp.MustCompile(`^((?:sleep \d+; )?curl .*?)\s*(?:#\s*(\d{3}))?\s*$`)

// readmeSteps returns the curl commands of the README's walkthrough block.
func readmeSteps(t *testing.T) []step {
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var steps []step
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## Ten minutes"):
			in = true
		case in && strings.HasPrefix(line, "## "):
			return steps
		case in:
			if m := curlLine.FindStringSubmatch(line); m != nil {
				steps = append(steps, step{command: m[1], want: m[2]})
			}
		}
	}
	return steps
}

// readmeSection is the README from the heading that starts with title to
// the next "## " heading.
func readmeSection(t *testing.T, title string) string {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n"+title)
	if i < 0 {
		t.Fatalf("the README has no %q section", title)
	}
	s = s[i+1:]
	if j := strings.Index(s[3:], "\n## "); j >= 0 {
		s = s[:j+3]
	}
	return s
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

func waitUp(t *testing.T, url string, logs fmt.Stringer) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("hostapp did not come up at %s\n%s", url, logs)
}
