package faulttest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildHostapp builds examples/hostapp into dir.
func buildHostapp(t *testing.T, dir string) string {
	t.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			t.Fatalf("no go command to build hostapp: %v", err)
		}
	}
	bin := filepath.Join(dir, "hostapp")
	cmd := exec.Command(goBin, "build", "-o", bin, "github.com/rolegate/rolegate/examples/hostapp")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build hostapp: %v\n%s", err, out)
	}
	return bin
}

type hostapp struct {
	cmd  *exec.Cmd
	url  string
	log  string
	done chan struct{}
}

var listenRE = regexp.MustCompile(`hostapp listening.*addr=(http://[^ ]+)`)

// startHostapp runs bin on a free loopback port (AUTH_SERVER_PORT=0, the
// address read from its log) with the given settings and none of the
// parent's AUTH_ variables, in dir so that no .env file is read. It is
// killed at cleanup.
func startHostapp(t *testing.T, bin, dir string, env ...string) *hostapp {
	t.Helper()
	h := &hostapp{log: filepath.Join(dir, "hostapp.log"), done: make(chan struct{})}
	cmd := exec.Command(bin, "-user-header", "X-User")
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AUTH_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "AUTH_SERVER_HOST=127.0.0.1", "AUTH_SERVER_PORT=0")
	cmd.Env = append(cmd.Env, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	logf, err := os.Create(h.log)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = logf
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h.cmd = cmd
	found := make(chan string, 1)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			fmt.Fprintln(logf, sc.Text())
			if m := listenRE.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(logf, stderr)
	}()
	go func() { <-copied; _ = cmd.Wait(); logf.Close(); close(h.done) }()
	t.Cleanup(h.kill)
	select {
	case h.url = <-found:
	case <-h.done:
		t.Fatalf("hostapp exited before listening:\n%s", tailFile(h.log, 20))
	case <-time.After(30 * time.Second):
		t.Fatalf("hostapp did not listen within 30 s:\n%s", tailFile(h.log, 20))
	}
	return h
}

func (h *hostapp) kill() {
	if h.cmd.Process == nil {
		return
	}
	_ = h.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-h.done:
	case <-time.After(5 * time.Second):
		_ = h.cmd.Process.Kill()
		<-h.done
	}
}

func (h *hostapp) exited() bool {
	select {
	case <-h.done:
		return true
	default:
		return false
	}
}

// client talks to the hostapp.
type client struct {
	base, key string
	hc        *http.Client
}

type envelope struct {
	Success   *bool           `json:"success"`
	Code      int             `json:"code"`
	Message   string          `json:"message"`
	Data      json.RawMessage `json:"data"`
	Error     string          `json:"error"`
	Timestamp string          `json:"timestamp"`
}

type response struct {
	status int
	body   []byte
	header http.Header
	err    error
}

func (r response) String() string {
	if r.err != nil {
		return "error: " + r.err.Error()
	}
	b := r.body
	if len(b) > 300 {
		b = b[:300]
	}
	return fmt.Sprintf("%d %s", r.status, b)
}

func (c *client) do(method, path, user string) response {
	req, err := http.NewRequest(method, c.base+path, nil)
	if err != nil {
		return response{err: err}
	}
	if strings.HasPrefix(path, "/api/") || path == "/metrics" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	if user != "" {
		req.Header.Set("X-User", user)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return response{err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return response{status: resp.StatusCode, body: body, header: resp.Header, err: err}
}

// errorEnvelope says what is wrong with r as a DESIGN.md error envelope
// with the given status, or "" when it is one.
func errorEnvelope(r response, status int) string {
	if r.err != nil {
		return r.String()
	}
	if r.status != status {
		return fmt.Sprintf("status %d, want %d: %s", r.status, status, r)
	}
	var e envelope
	if err := json.Unmarshal(r.body, &e); err != nil {
		return fmt.Sprintf("not JSON: %v: %s", err, r)
	}
	switch {
	case e.Success == nil || *e.Success:
		return "success is not false: " + r.String()
	case e.Code != status:
		return fmt.Sprintf("code %d, want %d: %s", e.Code, status, r)
	case e.Message == "" || e.Error == "":
		return "message or error empty: " + r.String()
	}
	if _, err := time.Parse(time.RFC3339Nano, e.Timestamp); err != nil {
		return "timestamp: " + err.Error()
	}
	if len(e.Data) != 0 && string(e.Data) != "null" {
		return "an error envelope with data: " + r.String()
	}
	return ""
}

// boolData reads data.<field> of a 2xx envelope.
func boolData(r response, field string) (bool, bool) {
	if r.err != nil || r.status/100 != 2 {
		return false, false
	}
	var e envelope
	if json.Unmarshal(r.body, &e) != nil {
		return false, false
	}
	var m map[string]*bool
	if json.Unmarshal(e.Data, &m) != nil || m[field] == nil {
		return false, false
	}
	return *m[field], true
}

// users reads data of GET /api/members/{role}.
func users(r response) ([]string, error) {
	if r.err != nil || r.status != 200 {
		return nil, fmt.Errorf("%s", r)
	}
	var e envelope
	if err := json.Unmarshal(r.body, &e); err != nil {
		return nil, err
	}
	var us []struct{ User string }
	if err := json.Unmarshal(e.Data, &us); err != nil {
		return nil, err
	}
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.User
	}
	return out, nil
}
