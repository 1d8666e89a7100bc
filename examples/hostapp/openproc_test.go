package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// attacksEnv runs the attacks on `hostapp -open` (attack_test.go). They
// take minutes and measure latency, so a plain `go test ./...` (which runs
// packages side by side) leaves them out; .ci/run runs them in a step of
// their own, after the other tests.
const attacksEnv = "AUTH_TEST_ATTACKS"

func needAttacks(t *testing.T) {
	t.Helper()
	if os.Getenv(attacksEnv) == "" {
		t.Skipf("minutes long: set %s=1 (.ci/run does)", attacksEnv)
	}
}

// openApp is `hostapp -open` running as a process on loopback.
type openApp struct {
	base   string
	pid    int
	target storagetest.Target
	logs   *procLog
	client *http.Client
}

// startOpen starts the built host app in open mode on target (a fresh
// SQLite file or PostgreSQL schema), with no AUTH_ variable of the test's
// environment (so every setting is its default) but the database, the
// port and extra ("NAME=value"), and stops it at cleanup.
func startOpen(t *testing.T, bin string, target storagetest.Target, extra ...string) *openApp {
	t.Helper()
	return startOpenArgs(t, bin, target, nil, extra...)
}

// startOpenArgs is startOpen with more flags for the app than -open.
func startOpenArgs(t *testing.T, bin string, target storagetest.Target, args []string, extra ...string) *openApp {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AUTH_") && !strings.HasPrefix(kv, "GODEBUG=") {
			env = append(env, kv)
		}
	}
	port := freePort(t)
	env = append(env, "AUTH_SERVER_PORT="+port, "AUTH_DATABASE_TYPE="+target.Config.Type)
	if target.Config.Type == storage.TypePostgreSQL {
		env = append(env, "AUTH_POSTGRESQL_URL="+target.Config.PostgreSQLURL)
	} else {
		env = append(env, "AUTH_SQLITE_PATH="+target.Config.SQLitePath)
	}
	env = append(env, extra...)
	app := exec.Command(bin, append([]string{"-open"}, args...)...)
	app.Env = env
	app.Dir = t.TempDir() // no stray .env
	logs := &procLog{}
	app.Stdout, app.Stderr = logs, logs
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("hostapp's log (the last 4 KB):\n%s", logs.tail(4096))
		}
	})
	stopAtCleanup(t, app, 15*time.Second) // cleanups run last first: stopped, then the log
	a := &openApp{base: "http://127.0.0.1:" + port, pid: app.Process.Pid, target: target, logs: logs,
		client: &http.Client{Timeout: 5 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}
	waitUp(t, a.base+"/ping", logs)
	return a
}

// do sends one request with the client key (none when key is empty) and
// returns the status, the body and how long the answer took.
func (a *openApp) do(t testing.TB, method, path, key string, body []byte) (int, []byte, time.Duration) {
	t.Helper()
	code, b, took, err := a.send(method, path, key, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return code, b, took
}

// send is do for other goroutines than the test's: it returns the error.
func (a *openApp) send(method, path, key string, body []byte) (int, []byte, time.Duration, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, a.base+path, r)
	if err != nil {
		return 0, nil, 0, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := a.client.Do(req)
	if err != nil {
		return 0, nil, 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, time.Since(start), err
}

// must sends one request and checks its status; it returns the
// envelope's data.
func (a *openApp) must(t testing.TB, method, path, key string, body []byte, want int) any {
	t.Helper()
	code, b, _ := a.do(t, method, path, key, body)
	if code != want {
		t.Fatalf("%s %s: %d, want %d: %.300s", method, path, code, want, b)
	}
	var env struct {
		Data any `json:"data"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("%s %s: %.300s: %v", method, path, b, err)
	}
	return env.Data
}

// result is the "result" of a check's answer.
func result(t testing.TB, data any) bool {
	t.Helper()
	m, ok := data.(map[string]any)
	if !ok {
		t.Fatalf("answer %v has no result", data)
	}
	return m["result"] == true
}

// rss is the process's resident set (VmRSS in /proc/PID/status), in
// bytes; 0 where /proc does not say.
func (a *openApp) rss() int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(a.pid), "status"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// cpu is the CPU time the process has used (user and system, from
// /proc/PID/stat); 0 where /proc does not say.
func (a *openApp) cpu() time.Duration {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(a.pid), "stat"))
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis: utime and
	// stime are the 12th and 13th, in clock ticks (100 a second on Linux).
	_, rest, ok := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

// selfCPU is the CPU time this test process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// openStore opens the app's database beside it, for the test to read.
func (a *openApp) openStore(t *testing.T) *bun.DB {
	t.Helper()
	db, err := storage.Open(context.Background(), a.target.Config)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// procLog is the process's output, kept for a failure's report, with the
// Go runtime's GC trace (GODEBUG=gctrace=1) parsed as it comes.
type procLog struct {
	mu      sync.Mutex
	out     []byte
	partial []byte
	gcs     []gcLine
}

// gcLine is one line of the GC trace: the cycle's number, and the heap
// when it started, when it ended and live after marking, in MiB (the
// trace's "MB" are 2^20 bytes).
type gcLine struct {
	n                int
	start, end, live int64
	goal             int64
	at               time.Time
}

var gcTrace = regexp.MustCompile(`^gc (\d+) @.* (\d+)->(\d+)->(\d+) MB, (\d+) MB goal`)

func (l *procLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.out = append(l.out, p...)
	if len(l.out) > 1<<20 {
		l.out = append(l.out[:0], l.out[len(l.out)-512<<10:]...)
	}
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		line := string(l.partial[:i])
		l.partial = l.partial[i+1:]
		if m := gcTrace.FindStringSubmatch(line); m != nil {
			g := gcLine{at: time.Now()}
			g.n, _ = strconv.Atoi(m[1])
			g.start, _ = strconv.ParseInt(m[2], 10, 64)
			g.end, _ = strconv.ParseInt(m[3], 10, 64)
			g.live, _ = strconv.ParseInt(m[4], 10, 64)
			g.goal, _ = strconv.ParseInt(m[5], 10, 64)
			l.gcs = append(l.gcs, g)
		}
	}
	return len(p), nil
}

func (l *procLog) String() string { return l.tail(1 << 20) }

func (l *procLog) tail(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(l.out[max(0, len(l.out)-n):]))
	for sc.Scan() {
		if !gcTrace.MatchString(sc.Text()) {
			b.WriteString(sc.Text())
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// gcsSince returns the GC cycles numbered above n.
func (l *procLog) gcsSince(n int) []gcLine {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []gcLine
	for _, g := range l.gcs {
		if g.n > n {
			out = append(out, g)
		}
	}
	return out
}

func (l *procLog) lastGC() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.gcs) == 0 {
		return 0
	}
	return l.gcs[len(l.gcs)-1].n
}

// liveHeap is the process's live heap, in MiB, as its next full GC cycle
// finds it: it sends cheap requests (GET /) until a cycle that began after
// this call has ended, and returns what that cycle marked live.
func (a *openApp) liveHeap(t *testing.T) int64 {
	t.Helper()
	// The cycle after the next: the next may have begun before this call.
	want := a.logs.lastGC() + 2
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.base+"/", nil)
				resp, err := a.client.Do(req)
				if err != nil {
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if gcs := a.logs.gcsSince(want - 1); len(gcs) > 0 {
					cancel()
				}
			}
		}()
	}
	wg.Wait()
	gcs := a.logs.gcsSince(want - 1)
	if len(gcs) == 0 {
		t.Fatalf("no GC cycle in 2 minutes of requests (is GODEBUG=gctrace=1 set?)")
	}
	return gcs[0].live
}

// mib writes bytes in MiB.
func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
