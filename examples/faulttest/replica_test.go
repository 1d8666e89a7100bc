package faulttest

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/rolegate/rolegate/storage"
)

// applyDelay is the standby's recovery_min_apply_delay: every write
// reaches it this long after it committed on the primary.
const applyDelay = 200 * time.Millisecond

// TestReadReplica runs examples/hostapp against a PostgreSQL primary and a
// streaming hot standby of it that replays 200 ms late, both started
// here: A writes on the primary; B (and Bs, strict) read from the standby
// (AUTH_POSTGRESQL_READ_URL). No answer of B's may be older than what it
// is asked to follow: ?at_least= and strict mode refuse at once after a
// revoke, and in the default mode B refuses within the apply delay and a
// margin. With replay paused B falls back to the primary, counted, and
// never answers stale; resumed, it reads from the standby again.
//
//	go test -v -run TestReadReplica ./examples/faulttest
func TestReadReplica(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two PostgreSQL servers and builds hostapp; skipped under -short")
	}
	tStart := time.Now()
	base := t.TempDir()
	ctx := context.Background()

	primary := newPGServer(t, base)
	if err := primary.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = primary.stop("immediate") })
	standby := newStandby(t, primary, base, applyDelay)
	if err := standby.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = standby.stop("immediate")
		if t.Failed() {
			t.Logf("standby log (last lines):\n%s", standby.tail(15))
		}
	})
	tServers := time.Since(tStart)

	// The standby is found to be one, and has no LISTEN.
	rdb, err := storage.OpenReplica(standby.url(), nil, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	isStandby, err := storage.DetectStandby(ctx, rdb)
	if err != nil || !isStandby || storage.Has(rdb, storage.Listen) || !storage.Has(rdb, storage.Standby) {
		t.Fatalf("the standby: in recovery %v (%v), Listen %v", isStandby, err, storage.Has(rdb, storage.Listen))
	}
	storage.ForgetReplica(rdb)
	rdb.Close()

	bin := buildHostapp(t, base)
	key := uuid.NewString()
	ns := storage.NamespaceOf(key)
	app := func(name string, env ...string) *client {
		dir := filepath.Join(base, name)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		env = append(env, "AUTH_DATABASE_TYPE=postgresql", "AUTH_POSTGRESQL_URL="+primary.url(), "AUTH_CLIENT_KEY="+key)
		h := startHostapp(t, bin, dir, env...)
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("%s log (last lines):\n%s", name, tailFile(h.log, 15))
			}
		})
		return &client{base: h.url, key: key, hc: &http.Client{Timeout: 10 * time.Second}}
	}
	a := app("a")
	b := app("b", "AUTH_POSTGRESQL_READ_URL="+standby.url(), "AUTH_ENABLE_METRICS=true")
	bs := app("bs", "AUTH_POSTGRESQL_READ_URL="+standby.url(), "AUTH_ENABLE_METRICS=true", "AUTH_CONSISTENCY=strict")
	c := app("c") // the primary alone: the window without a standby, for comparison
	if !strings.Contains(tailFile(filepath.Join(base, "b", "hostapp.log"), 40), "a standby (in recovery)") {
		t.Errorf("B's startup line does not name its standby:\n%s", tailFile(filepath.Join(base, "b", "hostapp.log"), 10))
	}
	for _, p := range []string{"/api/role/reader", "/api/permission/reader/read"} {
		if r := a.do("POST", p, ""); r.status != 201 {
			t.Fatalf("POST %s: %s", p, r)
		}
	}
	startB := scrape(t, b)

	// 900 rounds with ?at_least= on B, 900 with strict Bs: 0 allows
	// after the revoke.
	for _, mode := range []struct {
		name  string
		check func(user, token string) (bool, error)
	}{
		{"at_least", func(user, token string) (bool, error) {
			return result(b.do("GET", "/api/has_permission/"+user+"/read?at_least="+token, ""))
		}},
		{"strict", func(user, _ string) (bool, error) { return guard(bs, user) }},
	} {
		t0 := time.Now()
		late, n := revokeRounds(t, a, mode.check, mode.name, 900)
		t.Logf("%s: %d rounds of revoke on A then check on B: %d allowed after the revoke (%s)", mode.name, n, late, time.Since(t0).Round(time.Millisecond))
		if late > 0 {
			t.Errorf("%s: %d checks allowed after the revoke returned", mode.name, late)
		}
	}

	// Default mode: how long after a revoke returned B still allows.
	t0 := time.Now()
	windows := refusalWindows(t, a, b, 200)
	p := func(q float64) time.Duration { return windows[min(len(windows)-1, int(q*float64(len(windows))))] }
	t.Logf("default mode: revoke on A to refusal on B over %d rounds: p50 %v, p90 %v, p99 %v, max %v (%s; load %s)",
		len(windows), p(0.5).Round(10*time.Microsecond), p(0.9).Round(10*time.Microsecond), p(0.99).Round(10*time.Microsecond),
		windows[len(windows)-1].Round(10*time.Microsecond), time.Since(t0).Round(time.Millisecond), loadAverage())
	if p(0.99) > applyDelay+50*time.Millisecond {
		t.Errorf("p99 revoke to refusal %v, want within the apply delay plus 50 ms", p(0.99))
	}
	t0 = time.Now()
	windows = refusalWindows(t, a, c, 200)
	t.Logf("default mode without a standby (C on the primary alone): revoke on A to refusal on C over %d rounds: p50 %v, p90 %v, p99 %v, max %v (%s; load %s)",
		len(windows), p(0.5).Round(10*time.Microsecond), p(0.9).Round(10*time.Microsecond), p(0.99).Round(10*time.Microsecond),
		windows[len(windows)-1].Round(10*time.Microsecond), time.Since(t0).Round(time.Millisecond), loadAverage())

	// Replay paused: B falls back, counted, and never answers stale.
	sdb, pdb := sqlDB(t, standby), sqlDB(t, primary)
	if _, err := sdb.ExecContext(ctx, "SELECT pg_wal_replay_pause()"); err != nil {
		t.Fatal(err)
	}
	if !waitFor(t, 10*time.Second, "replay paused", func() bool {
		var state string
		return sdb.QueryRowContext(ctx, "SELECT pg_get_wal_replay_pause_state()").Scan(&state) == nil && state == "paused"
	}) {
		t.FailNow()
	}
	before := scrape(t, b)
	t0 = time.Now()
	stale, reads := pausedRounds(t, a, b, 40)
	paused := scrape(t, b).minus(before)
	t.Logf("replay paused: %d reads on B in %d rounds (%s), %d stale; standby %s", reads, 40, time.Since(t0).Round(time.Millisecond), stale, paused)
	if stale > 0 {
		t.Errorf("%d stale answers with replay paused", stale)
	}
	if paused.fallbacks() == 0 || paused.fallback["behind"] == 0 || paused.reads > 0 {
		t.Errorf("replay paused: want fallbacks counted as behind and no standby read: %s", paused)
	}

	// Replay resumed: once the standby has caught up, B reads from it.
	if _, err := sdb.ExecContext(ctx, "SELECT pg_wal_replay_resume()"); err != nil {
		t.Fatal(err)
	}
	want, err := revisionOf(ctx, pdb, ns)
	if err != nil {
		t.Fatal(err)
	}
	if !waitFor(t, 10*time.Second, "the standby caught up", func() bool {
		got, err := revisionOf(ctx, sdb, ns)
		return err == nil && got >= want
	}) {
		t.FailNow()
	}
	before = scrape(t, b)
	share := sharePhase(t, a, b, 5*time.Second)
	resumed := scrape(t, b).minus(before)
	t.Logf("replay resumed, 5 s of reads on B (new users' checks and lists) while A writes once a second: standby %s; share served by the standby %.0f%%", resumed, 100*share)
	if resumed.reads == 0 || share < 0.5 {
		t.Errorf("replay resumed: the standby served %.0f%% of B's reads (%s), want most", 100*share, resumed)
	}
	total := scrape(t, b).minus(startB)
	t.Logf("B over the whole test: standby %s, share %.0f%%", total, 100*total.share())
	t.Logf("PostgreSQL primary and standby up in %s; total %s (load %s)", tServers.Round(time.Millisecond), time.Since(tStart).Round(time.Millisecond), loadAverage())
}

// revokeRounds runs rounds of: grant on A, B allows at the grant's token,
// revoke on A, check on B right after with the revoke's token; three
// goroutines of a user each. It returns the checks that allowed after the
// revoke returned, and the rounds run.
func revokeRounds(t *testing.T, a *client, check func(user, token string) (bool, error), mode string, rounds int) (late, n int) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 3 {
		user := fmt.Sprintf("%s-%d", mode, g)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds/3; i++ {
				granted := write(t, a, "POST", "/api/membership/"+user+"/reader", 201)
				if granted == "" {
					return
				}
				if ok, err := check(user, granted); err != nil || !ok {
					t.Errorf("%s: B does not allow %s at the grant's revision: %v", mode, user, err)
					return
				}
				revoked := write(t, a, "DELETE", "/api/membership/"+user+"/reader", 200)
				if revoked == "" {
					return
				}
				ok, err := check(user, revoked)
				mu.Lock()
				n++
				if err != nil {
					t.Errorf("%s: check after the revoke: %v", mode, err)
				} else if ok {
					late++
				}
				mu.Unlock()
				if t.Failed() {
					return
				}
			}
		}()
	}
	wg.Wait()
	return late, n
}

// refusalWindows measures, over rounds (two goroutines), how long after a
// revoke on A returned B's guard still allowed: the time from the revoke's
// return to the start of the first check that refused. Sorted.
func refusalWindows(t *testing.T, a, b *client, rounds int) []time.Duration {
	t.Helper()
	var mu sync.Mutex
	var out []time.Duration
	var wg sync.WaitGroup
	for g := range 2 {
		user := fmt.Sprintf("default-%d", g)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds/2 && !t.Failed(); i++ {
				if write(t, a, "POST", "/api/membership/"+user+"/reader", 201) == "" ||
					!waitFor(t, 5*time.Second, "B allows "+user+" after the grant", func() bool { ok, err := guard(b, user); return err == nil && ok }) ||
					write(t, a, "DELETE", "/api/membership/"+user+"/reader", 200) == "" {
					return
				}
				returned := time.Now()
				for {
					begun := time.Now()
					ok, err := guard(b, user)
					if err != nil {
						t.Errorf("guard: %v", err)
						return
					}
					if !ok {
						mu.Lock()
						out = append(out, begun.Sub(returned))
						mu.Unlock()
						break
					}
					if begun.Sub(returned) > 10*time.Second {
						t.Errorf("B still allows %s 10 s after the revoke", user)
						return
					}
					time.Sleep(200 * time.Microsecond)
				}
			}
		}()
	}
	wg.Wait()
	if len(out) == 0 {
		t.FailNow()
	}
	slices.Sort(out)
	return out
}

// pausedRounds runs rounds of grant and revoke on A while the standby
// replays nothing, and asks B after each with ?at_least= (a check, a
// member list, the user's roles) and through its guard; it returns the
// answers older than the write they followed, and the reads made.
func pausedRounds(t *testing.T, a, b *client, rounds int) (stale, reads int) {
	t.Helper()
	for i := 0; i < rounds && !t.Failed(); i++ {
		user := fmt.Sprintf("paused-%d", i%4)
		granted := write(t, a, "POST", "/api/membership/"+user+"/reader", 201)
		if ok, err := result(b.do("GET", "/api/has_permission/"+user+"/read?at_least="+granted, "")); err != nil || !ok {
			t.Logf("stale: has_permission after the grant: %v %v", ok, err)
			stale++
		}
		revoked := write(t, a, "DELETE", "/api/membership/"+user+"/reader", 200)
		if ok, err := result(b.do("GET", "/api/has_permission/"+user+"/read?at_least="+revoked, "")); err != nil || ok {
			t.Logf("stale: has_permission after the revoke: %v %v", ok, err)
			stale++
		}
		if us, err := users(b.do("GET", "/api/members/reader?at_least="+revoked, "")); err != nil || slices.Contains(us, user) {
			t.Logf("stale: members after the revoke: %v %v", us, err)
			stale++
		}
		if r := b.do("GET", "/api/user_roles/"+user+"?at_least="+revoked, ""); r.status != 200 || strings.Contains(string(r.body), `"reader"`) {
			t.Logf("stale: user_roles after the revoke: %s", r)
			stale++
		}
		reads += 4
		// The guard (default mode) refuses within the window measured
		// above; it must never allow once it refused.
		waitFor(t, 5*time.Second, "B's guard refuses "+user, func() bool { ok, err := guard(b, user); return err == nil && !ok })
		reads++
	}
	return stale, reads
}

// sharePhase reads from B for d (checks of users B never saw, lists)
// while A writes once a second, and returns the share of B's store reads
// the standby served.
func sharePhase(t *testing.T, a, b *client, d time.Duration) float64 {
	t.Helper()
	before := scrape(t, b)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
			write(t, a, "POST", fmt.Sprintf("/api/membership/writer-%d/reader", i), 201)
		}
	}()
	for i, end := 0, time.Now().Add(d); time.Now().Before(end); i++ {
		var r response
		switch i % 3 {
		case 0, 1:
			r = b.do("GET", fmt.Sprintf("/api/has_permission/new-%d/read", i), "") // a cache fill
		default:
			r = b.do("GET", "/api/members/reader", "") // a list
		}
		if r.status != 200 {
			t.Errorf("B: %s", r)
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	close(stop)
	<-done
	return scrape(t, b).minus(before).share()
}

// write sends a write to A, wants status, and returns its revision token;
// "" after reporting an error (it may run in a goroutine of the test).
func write(t *testing.T, a *client, method, path string, status int) string {
	t.Helper()
	r := a.do(method, path, "")
	tok := r.header.Get("Rolegate-Revision")
	if r.err != nil || r.status != status || tok == "" {
		t.Errorf("%s %s: %s (revision %q), want %d", method, path, r, tok, status)
		return ""
	}
	return tok
}

// result reads data.result of a has_permission answer.
func result(r response) (bool, error) {
	v, ok := boolData(r, "result")
	if !ok {
		return false, fmt.Errorf("has_permission: %s", r)
	}
	return v, nil
}

// guard asks c's guarded GET /notes as user: allowed (200) or refused
// (403); anything else is an error.
func guard(c *client, user string) (bool, error) {
	r := c.do("GET", "/notes", user)
	switch {
	case r.err == nil && r.status == 200:
		return true, nil
	case r.err == nil && r.status == 403:
		return false, nil
	}
	return false, fmt.Errorf("GET /notes as %s: %s", user, r)
}

// waitFor polls ok until it holds, or reports an error after within and
// returns false (it may run in a goroutine of the test).
func waitFor(t *testing.T, within time.Duration, what string, ok func() bool) bool {
	t.Helper()
	deadline := time.Now().Add(within)
	for !ok() {
		if time.Now().After(deadline) {
			t.Errorf("not within %v: %s", within, what)
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// standbyCounts are B's rolegate_standby_* counters.
type standbyCounts struct {
	reads    float64
	fallback map[string]float64
}

func (s standbyCounts) fallbacks() float64 {
	var n float64
	for _, v := range s.fallback {
		n += v
	}
	return n
}

func (s standbyCounts) share() float64 {
	if s.reads+s.fallbacks() == 0 {
		return 0
	}
	return s.reads / (s.reads + s.fallbacks())
}

func (s standbyCounts) minus(o standbyCounts) standbyCounts {
	d := standbyCounts{reads: s.reads - o.reads, fallback: map[string]float64{}}
	for k, v := range s.fallback {
		d.fallback[k] = v - o.fallback[k]
	}
	return d
}

func (s standbyCounts) String() string {
	keys := make([]string, 0, len(s.fallback))
	for k := range s.fallback {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := []string{fmt.Sprintf("reads %.0f", s.reads)}
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("fallbacks %s %.0f", k, s.fallback[k]))
	}
	return strings.Join(parts, ", ")
}

// scrape reads B's standby counters from GET /metrics.
func scrape(t *testing.T, c *client) standbyCounts {
	t.Helper()
	r := c.do("GET", "/metrics", "")
	if r.err != nil || r.status != 200 {
		t.Fatalf("GET /metrics: %s", r)
	}
	s := standbyCounts{fallback: map[string]float64{}}
	found := false
	sc := bufio.NewScanner(strings.NewReader(string(r.body)))
	for sc.Scan() {
		line := sc.Text()
		name, value, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		switch {
		case name == "rolegate_standby_reads_total":
			s.reads, found = v, true
		case strings.HasPrefix(name, `rolegate_standby_fallbacks_total{reason="`):
			s.fallback[strings.TrimSuffix(strings.TrimPrefix(name, `rolegate_standby_fallbacks_total{reason="`), `"}`)] = v
		}
	}
	if !found {
		t.Fatal("GET /metrics has no rolegate_standby_reads_total")
	}
	return s
}

// loadAverage is the first field of /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
