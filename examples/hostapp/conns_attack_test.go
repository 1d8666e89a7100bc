package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// Idle connections (issue 33, point 6): 20,000 sockets held open to
// `hostapp -open`, half after one request (kept alive), half that never
// send a byte, then new clients. The app keeps at most its cap of
// connections open (-max-conns, 2048 by default) by closing those idle
// the longest, so a new client is answered within 2 s, the app's open
// descriptors stay under the cap plus its reserve, and its resident set
// grows by at most 128 MiB. Before the cap, 19,000 idle sockets took the
// app from 59 to 411 MiB and, at the open-file limit, accept failed and a
// new client was left unanswered. No store is involved, so SQLite only.
func TestOpenModeAttackIdleConnections(t *testing.T) {
	needAttacks(t)
	const sockets = 20000
	// The sockets are held by helper processes (this test binary run as
	// TestIdleSocketsHelper), each within the open-file limit a process
	// may have, as an attacker spreads them.
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skipf("cannot read RLIMIT_NOFILE: %v", err)
	}
	perHelper := int(min(lim.Max, 1<<20)) - 256
	helpers := (sockets + perHelper - 1) / max(perHelper, 1)
	if perHelper < 2500 {
		t.Skipf("RLIMIT_NOFILE: the hard limit is %d; %d sockets would take more than 8 processes (raise it: ulimit -Hn, as root)", lim.Max, sockets)
	}
	bin, _ := hostappBinary(t)
	app := startOpen(t, bin, storagetest.SQLite(t))

	// Go raises the soft open-file limit to the hard one at start.
	soft, hard := app.openFileLimits(t)
	if soft != hard {
		t.Errorf("the app's open-file limit is %d (hard %d): Go should have raised it", soft, hard)
	}
	addr := strings.TrimPrefix(app.base, "http://")
	rssBefore, fdsBefore := app.rss(), app.fds()

	start := time.Now()
	reports := make([]func() idleReport, helpers)
	for h := range helpers {
		n := sockets / helpers
		if h < sockets%helpers {
			n++
		}
		reports[h] = startIdleHelper(t, addr, n)
	}
	var total idleReport
	for _, report := range reports {
		total.add(report())
	}
	opened := time.Since(start)
	rssAfter, fdsAfter := app.rss(), app.fds()

	// New clients, each on a connection of its own.
	var worst time.Duration
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	for range 5 {
		began := time.Now()
		resp, err := client.Get(app.base + "/")
		took := time.Since(began)
		if err != nil {
			t.Fatalf("a new client with %d sockets open: %v after %v", total.opened, err, took.Round(time.Millisecond))
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("a new client: %d", resp.StatusCode)
		}
		worst = max(worst, took)
	}

	t.Logf("%d sockets opened by %d processes in %v (%d connects failed); of the %d that sent a request, %d were answered, %d closed to make room first",
		total.opened, helpers, opened.Round(time.Millisecond), total.failed, total.asked, total.answered, total.asked-total.answered)
	t.Logf("app: RSS %s -> %s (%+.1f MiB), open descriptors %d -> %d, open-file limit %d; a new client answered in at most %v (5 tries)",
		mib(rssBefore), mib(rssAfter), float64(rssAfter-rssBefore)/(1<<20), fdsBefore, fdsAfter, soft, worst.Round(time.Millisecond))
	if total.opened < sockets {
		t.Errorf("only %d of %d sockets opened", total.opened, sockets)
	}
	if worst > 2*time.Second {
		t.Errorf("a new client waited %v; want at most 2 s", worst)
	}
	if fdsAfter > defaultMaxConns+fdReserve {
		t.Errorf("the app holds %d descriptors; want at most the cap %d plus %d", fdsAfter, defaultMaxConns, fdReserve)
	}
	if grew := rssAfter - rssBefore; grew > 128<<20 {
		t.Errorf("RSS grew by %s; want at most 128 MiB", mib(grew))
	}
	if !strings.Contains(app.logs.String(), "connection cap reached") {
		t.Error("the app did not log that it reached its connection cap")
	}
}

// idleReport is what a helper did: sockets opened, connects that failed,
// requests sent and answered.
type idleReport struct{ opened, failed, asked, answered int }

func (r *idleReport) add(o idleReport) {
	r.opened += o.opened
	r.failed += o.failed
	r.asked += o.asked
	r.answered += o.answered
}

const idleHelperEnv = "AUTH_TEST_IDLE_SOCKETS"

// startIdleHelper runs this test binary as TestIdleSocketsHelper holding
// n sockets to addr until the test ends; the func it returns waits for the
// helper's report, which comes once they are open.
func startIdleHelper(t *testing.T, addr string, n int) func() idleReport {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestIdleSocketsHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), idleHelperEnv+"="+addr+","+strconv.Itoa(n))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the helper closes its sockets and exits
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
		}
	})
	return func() idleReport {
		t.Helper()
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var r idleReport
			if _, err := fmt.Sscanf(sc.Text(), "idle sockets: opened %d failed %d asked %d answered %d", &r.opened, &r.failed, &r.asked, &r.answered); err == nil {
				go io.Copy(io.Discard, stdout)
				return r
			}
		}
		t.Fatalf("the helper holding %d sockets ended without a report", n)
		return idleReport{}
	}
}

// TestIdleSocketsHelper is not a test: run by startIdleHelper, it opens
// the sockets it is told to (every other one sends one request and keeps
// its connection; the others send nothing), reports, and holds them until
// its standard input closes.
func TestIdleSocketsHelper(t *testing.T) {
	spec := os.Getenv(idleHelperEnv)
	if spec == "" {
		t.Skip("run by TestOpenModeAttackIdleConnections")
	}
	addr, count, _ := strings.Cut(spec, ",")
	n, _ := strconv.Atoi(count)
	const workers = 16
	conns := make([]net.Conn, n)
	var failed, asked, answered atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				c, err := net.DialTimeout("tcp", addr, 10*time.Second)
				if err != nil {
					failed.Add(1)
					continue
				}
				conns[i] = c
				if i%2 == 1 {
					continue // connected, sends nothing
				}
				asked.Add(1)
				c.SetDeadline(time.Now().Add(10 * time.Second))
				if code, err := oneRequest(c); err == nil && code == http.StatusOK {
					answered.Add(1)
				}
				c.SetDeadline(time.Time{})
			}
		}()
	}
	wg.Wait()
	fmt.Printf("idle sockets: opened %d failed %d asked %d answered %d\n", int64(n)-failed.Load(), failed.Load(), asked.Load(), answered.Load())
	io.Copy(io.Discard, os.Stdin)
	for _, c := range conns {
		if c != nil {
			c.Close()
		}
	}
}

// oneRequest sends GET / on c and reads the answer, leaving c open.
func oneRequest(c net.Conn) (int, error) {
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: hostapp\r\n\r\n"); err != nil {
		return 0, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, err
}

// fds is how many descriptors the process has open (/proc/PID/fd).
func (a *openApp) fds() int {
	entries, err := os.ReadDir(filepath.Join("/proc", strconv.Itoa(a.pid), "fd"))
	if err != nil {
		return 0
	}
	return len(entries)
}

// openFileLimits reads the process's soft and hard open-file limits
// (/proc/PID/limits).
func (a *openApp) openFileLimits(t *testing.T) (soft, hard uint64) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(a.pid), "limits"))
	if err != nil {
		t.Skipf("no /proc limits: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "Max open files"); ok {
			f := strings.Fields(rest)
			if len(f) >= 2 {
				soft, _ = strconv.ParseUint(f[0], 10, 64)
				hard, _ = strconv.ParseUint(f[1], 10, 64)
				return soft, hard
			}
		}
	}
	t.Fatalf("no open-file limit in /proc/%d/limits", a.pid)
	return 0, 0
}
