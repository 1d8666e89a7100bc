package main

import (
	"bufio"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestMinimalPrintsWorkingCurlLines runs the example as a user would, on
// AUTH_SERVER_PORT, and runs the curl lines it prints, checking each
// status against its comment: the guarded route goes from 403 to 200.
func TestMinimalPrintsWorkingCurlLines(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "minimal")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	env := append(os.Environ(), "AUTH_CLIENT_KEY="+uuid.NewString(), "AUTH_SERVER_PORT="+port,
		"AUTH_SQLITE_PATH="+filepath.Join(dir, "auth.sqlite3"), "AUTH_DATABASE_URL=", "AUTH_DATABASE_TYPE=sqlite")
	app := exec.Command(bin)
	app.Env, app.Dir = env, dir
	out, err := app.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Process.Kill(); app.Wait() })

	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		io.Copy(io.Discard, out)
	}()
	var printed []string
	timeout := time.After(30 * time.Second)
	for len(printed) == 0 || !strings.Contains(printed[len(printed)-1], "# 200") {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("minimal exited; printed:\n%s", strings.Join(printed, "\n"))
			}
			printed = append(printed, l)
		case <-timeout:
			t.Fatalf("minimal printed no curl lines in 30s:\n%s", strings.Join(printed, "\n"))
		}
	}
	if !strings.Contains(printed[0], "127.0.0.1:"+port) {
		t.Errorf("not on AUTH_SERVER_PORT: %s", printed[0])
	}
	want := regexp.MustCompile(`#\s*(\d{3})\s*$`)
	ran := 0
	for _, l := range printed {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "curl ") {
			continue
		}
		status := "2"
		if m := want.FindStringSubmatch(l); m != nil {
			status = m[1]
			l = strings.TrimSpace(l[:len(l)-len(m[0])])
		}
		cmd := exec.Command("bash", "-c", `K="Authorization: Bearer $AUTH_CLIENT_KEY"; `+l+` -s -o /dev/null -w '%{http_code}'`)
		cmd.Env = env
		got, err := cmd.CombinedOutput()
		if err != nil || !strings.HasPrefix(string(got), status) {
			t.Errorf("%s\n  answered %s (%v), want %s", l, got, err, status)
		}
		ran++
	}
	if ran < 5 {
		t.Errorf("ran only %d curl lines", ran)
	}
}
