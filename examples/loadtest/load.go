package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// loadConfig is one load run against one running hostapp.
type loadConfig struct {
	BaseURL       string
	ClientKey     string
	Duration      time.Duration
	Connections   int
	WriteRatio    float64
	APICheckRatio float64 // share of the checks sent to GET /api/has_permission; the rest go to GET /notes
	Users, Roles  int
	MaxRequests   int64
	Timeout       time.Duration
	Seed          uint64
	Prefix        string // every name of this run starts with it
	MaxErrors     int64
}

// Operation kinds, each with its own histogram and status counts.
const (
	opNotes    = iota // GET /notes with X-User (the guard)
	opAPICheck        // GET /api/has_permission/{user}/{perm}
	opAdd             // POST /api/membership/{user}/{role}
	opDel             // DELETE /api/membership/{user}/{role}
	numOps
)

var opNames = [numOps]string{"check GET /notes", "check GET /api/has_permission", "write POST membership", "write DELETE membership"}

// world is the data the setup phase wrote: who holds which permission, who
// is a member of which role. The setup users are never written during the
// load, so every check has one right answer.
type world struct {
	roles   []string
	users   []string
	perms   map[string][]string        // role -> permissions
	members map[string]map[string]bool // role -> users (setup members)
	holds   []map[string]bool          // user index -> permissions held
	allowed string                     // a user that holds "read" (for wrk)
}

func (cfg *loadConfig) roleName(i int) string { return fmt.Sprintf("%s-role-%03d", cfg.Prefix, i) }
func (cfg *loadConfig) userName(i int) string { return fmt.Sprintf("%s-user-%05d", cfg.Prefix, i) }

// buildWorld draws the setup data from the seed: role i grants "read" when
// i is even, "edit" when i is a multiple of 5, and "p-<i>" always; every
// tenth user has no role, the others two distinct roles; user 0 is in
// role 0 and so holds "read".
func buildWorld(cfg *loadConfig) *world {
	rng := rand.New(rand.NewPCG(cfg.Seed, 1))
	w := &world{perms: map[string][]string{}, members: map[string]map[string]bool{}}
	for i := 0; i < cfg.Roles; i++ {
		r := cfg.roleName(i)
		w.roles = append(w.roles, r)
		ps := []string{fmt.Sprintf("p-%d", i)}
		if i%2 == 0 {
			ps = append(ps, "read")
		}
		if i%5 == 0 {
			ps = append(ps, "edit")
		}
		w.perms[r] = ps
		w.members[r] = map[string]bool{}
	}
	for u := 0; u < cfg.Users; u++ {
		name := cfg.userName(u)
		w.users = append(w.users, name)
		held := map[string]bool{}
		var rs []int
		switch {
		case u == 0:
			rs = []int{0}
		case u%10 == 0:
		default:
			a := rng.IntN(cfg.Roles)
			b := rng.IntN(cfg.Roles)
			for b == a && cfg.Roles > 1 {
				b = rng.IntN(cfg.Roles)
			}
			rs = []int{a, b}
		}
		for _, ri := range rs {
			w.members[w.roles[ri]][name] = true
			for _, p := range w.perms[w.roles[ri]] {
				held[p] = true
			}
		}
		w.holds = append(w.holds, held)
	}
	w.allowed = w.users[0]
	return w
}

// api is a small REST client for rolegate's admin API.
type api struct {
	base   string
	key    string
	client *http.Client
}

func newHTTPClient(conns int, timeout time.Duration) *http.Client {
	tr := &http.Transport{
		Proxy:               nil, // loopback only, never through a proxy
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        conns * 2,
		MaxIdleConnsPerHost: conns * 2,
		MaxConnsPerHost:     conns,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
	}
	return &http.Client{Transport: tr, Timeout: timeout}
}

type envelope struct {
	Success bool            `json:"success"`
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	Error   string          `json:"error"`
}

// do sends one request; body is read fully so that the connection is reused.
func (a *api) do(method, path string, header http.Header) (int, []byte, error) {
	req, err := http.NewRequest(method, a.base+path, nil)
	if err != nil {
		return 0, nil, err
	}
	if strings.HasPrefix(path, "/api/") {
		req.Header.Set("Authorization", "Bearer "+a.key)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return resp.StatusCode, nil, err
	}
	return resp.StatusCode, body, nil
}

func seg(s string) string { return url.PathEscape(s) }

// setup writes the world through the REST API with cfg.Connections workers.
func setup(a *api, cfg *loadConfig, w *world) (int, error) {
	type job struct {
		method, path string
		want         []int
	}
	var phases [][]job
	var roles, grants, members []job
	for _, r := range w.roles {
		roles = append(roles, job{"POST", "/api/role/" + seg(r), []int{201}})
		for _, p := range w.perms[r] {
			grants = append(grants, job{"POST", "/api/permission/" + seg(r) + "/" + seg(p), []int{201}})
		}
		for _, u := range sortedKeys(w.members[r]) {
			members = append(members, job{"POST", "/api/membership/" + seg(u) + "/" + seg(r), []int{201}})
		}
	}
	phases = append(phases, roles, grants, members)
	total := 0
	for _, jobs := range phases {
		ch := make(chan job)
		var mu sync.Mutex
		var firstErr error
		var wg sync.WaitGroup
		for i := 0; i < cfg.Connections; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range ch {
					status, body, err := a.do(j.method, j.path, nil)
					if err == nil && !slices.Contains(j.want, status) {
						err = fmt.Errorf("%s %s: status %d, want %v: %s", j.method, j.path, status, j.want, truncate(body))
					}
					if err != nil {
						mu.Lock()
						if firstErr == nil {
							firstErr = err
						}
						mu.Unlock()
					}
				}
			}()
		}
		for _, j := range jobs {
			ch <- j
		}
		close(ch)
		wg.Wait()
		total += len(jobs)
		if firstErr != nil {
			return total, fmt.Errorf("setup: %w", firstErr)
		}
	}
	return total, nil
}

type pair struct{ user, role string }

// writeState is one worker's record of its writes. Each worker writes only
// memberships of its own users, one request at a time, so the last
// acknowledged write of a pair is its final state.
type writeState struct {
	final     map[pair]bool // acknowledged final state: true present, false absent
	uncertain map[pair]bool // a write whose outcome is unknown (5xx, transport error)
	present   []pair        // acknowledged present, candidates for DELETE
	deleted   []pair        // acknowledged absent, candidates for a re-add
	next      int
}

type workerResult struct {
	hist      [numOps]*hdrhistogram.Histogram
	status    [numOps]map[int]int64
	transport [numOps]map[string]int64
	wrong     int64    // checks answered against the data (allow for deny or the reverse)
	anomalies []string // writes whose 2xx answer contradicts the acknowledged history
	writes    writeState
}

func newHist() *hdrhistogram.Histogram { return hdrhistogram.New(1, 60_000_000, 3) } // µs, up to 60 s

// runLoad runs the mixed traffic until the duration or the request budget
// is spent.
func runLoad(a *api, cfg *loadConfig, w *world) (results []*workerResult, elapsed time.Duration) {
	var count atomic.Int64
	deadline := time.Now().Add(cfg.Duration)
	results = make([]*workerResult, cfg.Connections)
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < cfg.Connections; i++ {
		res := &workerResult{writes: writeState{final: map[pair]bool{}, uncertain: map[pair]bool{}}}
		for k := range numOps {
			res.hist[k] = newHist()
			res.status[k] = map[int]int64{}
			res.transport[k] = map[string]int64{}
		}
		results[i] = res
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			worker(a, cfg, w, id, res, deadline, &count)
		}(i)
	}
	wg.Wait()
	return results, time.Since(start)
}

func worker(a *api, cfg *loadConfig, w *world, id int, res *workerResult, deadline time.Time, count *atomic.Int64) {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(id)+1000))
	perms := []string{"read", "edit"}
	ws := &res.writes
	for time.Now().Before(deadline) {
		if cfg.MaxRequests > 0 && count.Add(1) > cfg.MaxRequests {
			return
		}
		var op int
		var path string
		var header http.Header
		var p pair
		var wantAllow bool
		if rng.Float64() < cfg.WriteRatio {
			// A write: a new membership, a delete of an acknowledged one, or
			// a re-add of an acknowledged delete.
			choice := rng.IntN(3)
			switch {
			case choice == 1 && len(ws.present) > 0:
				i := rng.IntN(len(ws.present))
				p = ws.present[i]
				ws.present[i] = ws.present[len(ws.present)-1]
				ws.present = ws.present[:len(ws.present)-1]
				op = opDel
			case choice == 2 && len(ws.deleted) > 0:
				i := rng.IntN(len(ws.deleted))
				p = ws.deleted[i]
				ws.deleted[i] = ws.deleted[len(ws.deleted)-1]
				ws.deleted = ws.deleted[:len(ws.deleted)-1]
				op = opAdd
			default:
				p = pair{fmt.Sprintf("%s-w%03d-%06d", cfg.Prefix, id, ws.next), w.roles[rng.IntN(len(w.roles))]}
				ws.next++
				op = opAdd
			}
			path = "/api/membership/" + seg(p.user) + "/" + seg(p.role)
		} else {
			u := rng.IntN(len(w.users))
			if rng.Float64() < cfg.APICheckRatio {
				op = opAPICheck
				perm := perms[rng.IntN(len(perms))]
				wantAllow = w.holds[u][perm]
				path = "/api/has_permission/" + seg(w.users[u]) + "/" + perm
			} else {
				op = opNotes
				wantAllow = w.holds[u]["read"]
				path = "/notes"
				header = http.Header{"X-User": {w.users[u]}}
			}
		}
		method := "GET"
		switch op {
		case opAdd:
			method = "POST"
		case opDel:
			method = "DELETE"
		}
		t0 := time.Now()
		status, body, err := a.do(method, path, header)
		lat := time.Since(t0)
		_ = res.hist[op].RecordValue(max(1, lat.Microseconds()))
		if err != nil {
			res.transport[op][errKind(err)]++
		} else {
			res.status[op][status]++
		}
		switch op {
		case opNotes:
			if err == nil && (status == 200 && !wantAllow || status == 403 && wantAllow) {
				res.wrong++
			}
		case opAPICheck:
			if err == nil && status == 200 {
				var env envelope
				var d struct{ Result *bool }
				if json.Unmarshal(body, &env) != nil || json.Unmarshal(env.Data, &d) != nil || d.Result == nil {
					res.anomalies = append(res.anomalies, fmt.Sprintf("GET %s: 200 with a body that is no result: %s", path, truncate(body)))
				} else if *d.Result != wantAllow {
					res.wrong++
				}
			}
		case opAdd, opDel:
			switch {
			case err == nil && status >= 200 && status < 300:
				present := op == opAdd
				ws.final[p] = present
				if present {
					ws.present = append(ws.present, p)
					if status != 201 {
						res.anomalies = append(res.anomalies, fmt.Sprintf("POST %s answered %d (existed already) though every earlier acknowledged write left it absent", path, status))
					}
				} else {
					ws.deleted = append(ws.deleted, p)
					var env envelope
					var d struct{ Deleted *bool }
					if json.Unmarshal(body, &env) != nil || json.Unmarshal(env.Data, &d) != nil || d.Deleted == nil || !*d.Deleted {
						res.anomalies = append(res.anomalies, fmt.Sprintf("DELETE %s of an acknowledged membership answered %d %s", path, status, truncate(body)))
					}
				}
			case err == nil && status >= 400 && status < 500:
				// Refused, so not applied: the pair keeps its state, but it is
				// an error of the run (it should not happen) and the pair is
				// left alone from now on.
				if op == opDel {
					ws.final[p] = true // still present as far as we know
				}
			default:
				// 5xx or no answer: the write may or may not have happened.
				ws.uncertain[p] = true
				delete(ws.final, p)
			}
		}
	}
}

func errKind(err error) string {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "eof"
	case strings.Contains(err.Error(), "connection refused"):
		return "connection refused"
	case strings.Contains(err.Error(), "connection reset"):
		return "connection reset"
	}
	return "other: " + err.Error()
}

// summary is the merged result of a run.
type summary struct {
	requests   int64
	elapsed    time.Duration
	all        *hdrhistogram.Histogram
	hist       [numOps]*hdrhistogram.Histogram
	status     [numOps]map[int]int64
	transport  [numOps]map[string]int64
	errors     int64 // unexpected statuses and transport errors
	wrong      int64
	anomalies  []string
	acked      int64 // acknowledged writes
	uncertain  int
	finalState map[pair]bool
}

func summarise(results []*workerResult, elapsed time.Duration) *summary {
	s := &summary{elapsed: elapsed, all: newHist(), finalState: map[pair]bool{}}
	for k := range numOps {
		s.hist[k] = newHist()
		s.status[k] = map[int]int64{}
		s.transport[k] = map[string]int64{}
	}
	expected := [numOps][]int{opNotes: {200, 403}, opAPICheck: {200}, opAdd: {201}, opDel: {200}}
	for _, r := range results {
		for k := range numOps {
			s.hist[k].Merge(r.hist[k])
			s.all.Merge(r.hist[k])
			for st, n := range r.status[k] {
				s.status[k][st] += n
				s.requests += n
				if !slices.Contains(expected[k], st) {
					s.errors += n
				}
				if (k == opAdd || k == opDel) && st >= 200 && st < 300 {
					s.acked += n
				}
			}
			for e, n := range r.transport[k] {
				s.transport[k][e] += n
				s.requests += n
				s.errors += n
			}
		}
		s.wrong += r.wrong
		s.anomalies = append(s.anomalies, r.anomalies...)
		s.uncertain += len(r.writes.uncertain)
		for p, v := range r.writes.final {
			s.finalState[p] = v
		}
		for p := range r.writes.uncertain {
			delete(s.finalState, p)
		}
	}
	return s
}

// verifyResult is what the REST API shows after the load.
type verifyResult struct {
	rolesChecked int
	expected     int // memberships expected in total
	missing      []string
	extra        []string
	uncertainHit int // uncertain writes that turned out present
	err          error
}

func (v *verifyResult) ok() bool { return v.err == nil && len(v.missing) == 0 && len(v.extra) == 0 }

// verify reads GET /api/members/{role} of every role of the run and
// compares it with the setup members plus the acknowledged final state of
// every written pair: equal, except for writes whose outcome is unknown.
func verify(a *api, w *world, s *summary, uncertain map[pair]bool) *verifyResult {
	v := &verifyResult{}
	want := map[string]map[string]bool{}
	for _, r := range w.roles {
		want[r] = map[string]bool{}
		for u := range w.members[r] {
			want[r][u] = true
		}
	}
	for p, present := range s.finalState {
		if present {
			want[p.role][p.user] = true
		}
	}
	for _, r := range w.roles {
		status, body, err := a.do("GET", "/api/members/"+seg(r), nil)
		if err != nil || status != 200 {
			v.err = fmt.Errorf("GET /api/members/%s: status %d err %v: %s", r, status, err, truncate(body))
			return v
		}
		var env envelope
		var users []struct{ User string }
		if err := json.Unmarshal(body, &env); err != nil {
			v.err = err
			return v
		}
		if err := json.Unmarshal(env.Data, &users); err != nil {
			v.err = fmt.Errorf("GET /api/members/%s: data: %w", r, err)
			return v
		}
		got := map[string]bool{}
		for _, u := range users {
			got[u.User] = true
		}
		v.rolesChecked++
		v.expected += len(want[r])
		for u := range want[r] {
			if !got[u] {
				v.missing = append(v.missing, u+" in "+r)
			}
		}
		for u := range got {
			if want[r][u] {
				continue
			}
			if uncertain[pair{u, r}] {
				v.uncertainHit++
				continue
			}
			v.extra = append(v.extra, u+" in "+r)
		}
	}
	sort.Strings(v.missing)
	sort.Strings(v.extra)
	return v
}

func uncertainPairs(results []*workerResult) map[pair]bool {
	out := map[pair]bool{}
	for _, r := range results {
		for p := range r.writes.uncertain {
			out[p] = true
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func truncate(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// runOnce is setup, load, verification and report against one hostapp.
// It returns whether the run passed.
func runOnce(ctx context.Context, cfg *loadConfig, out io.Writer) (*summary, *verifyResult, *world, error) {
	_ = ctx
	a := &api{base: cfg.BaseURL, key: cfg.ClientKey, client: newHTTPClient(cfg.Connections, cfg.Timeout)}
	if status, body, err := a.do("GET", "/ping", nil); err != nil || status != 200 {
		return nil, nil, nil, fmt.Errorf("GET /ping: status %d err %v: %s", status, err, truncate(body))
	}
	w := buildWorld(cfg)
	t0 := time.Now()
	n, err := setup(a, cfg, w)
	if err != nil {
		return nil, nil, nil, err
	}
	fmt.Fprintf(out, "setup: %d roles, %d users, %d REST writes in %s (prefix %s)\n", cfg.Roles, cfg.Users, n, time.Since(t0).Round(time.Millisecond), cfg.Prefix)
	fmt.Fprintf(out, "load: %s at %d connections, write ratio %.2f, %.0f%% of checks via /api/has_permission\n", cfg.Duration, cfg.Connections, cfg.WriteRatio, cfg.APICheckRatio*100)
	fmt.Fprintf(out, "load average before: %s\n", loadavg())
	results, elapsed := runLoad(a, cfg, w)
	fmt.Fprintf(out, "load average after:  %s\n", loadavg())
	s := summarise(results, elapsed)
	v := verify(a, w, s, uncertainPairs(results))
	report(out, cfg, s, v)
	return s, v, w, nil
}

func ms(us int64) string { return fmt.Sprintf("%.2f ms", float64(us)/1000) }

func report(out io.Writer, cfg *loadConfig, s *summary, v *verifyResult) {
	fmt.Fprintf(out, "requests: %d in %s = %.0f req/s\n", s.requests, s.elapsed.Round(time.Millisecond), float64(s.requests)/s.elapsed.Seconds())
	fmt.Fprintf(out, "%-32s %9s %9s %10s %10s %10s %10s  statuses\n", "operation", "count", "req/s", "p50", "p99", "p99.9", "max")
	line := func(name string, h *hdrhistogram.Histogram, st map[int]int64, tr map[string]int64) {
		var parts []string
		for _, code := range sortedInts(st) {
			parts = append(parts, fmt.Sprintf("%d:%d", code, st[code]))
		}
		for _, e := range sortedKeys(tr) {
			parts = append(parts, fmt.Sprintf("%s:%d", e, tr[e]))
		}
		fmt.Fprintf(out, "%-32s %9d %9.0f %10s %10s %10s %10s  %s\n", name, h.TotalCount(), float64(h.TotalCount())/s.elapsed.Seconds(),
			ms(h.ValueAtQuantile(50)), ms(h.ValueAtQuantile(99)), ms(h.ValueAtQuantile(99.9)), ms(h.Max()), strings.Join(parts, " "))
	}
	for k := range numOps {
		line(opNames[k], s.hist[k], s.status[k], s.transport[k])
	}
	line("all", s.all, nil, nil)
	fmt.Fprintf(out, "errors (unexpected status or no answer): %d\n", s.errors)
	fmt.Fprintf(out, "wrong decisions (allow for deny or the reverse): %d\n", s.wrong)
	fmt.Fprintf(out, "acknowledged writes: %d; writes with unknown outcome: %d\n", s.acked, s.uncertain)
	for i, a := range s.anomalies {
		if i == 10 {
			fmt.Fprintf(out, "  ... %d more anomalies\n", len(s.anomalies)-10)
			break
		}
		fmt.Fprintf(out, "  anomaly: %s\n", a)
	}
	if v.err != nil {
		fmt.Fprintf(out, "verification: FAILED: %v\n", v.err)
		return
	}
	verdict := "OK"
	if !v.ok() {
		verdict = "FAILED"
	}
	fmt.Fprintf(out, "verification: %s: %d roles read back through GET /api/members, %d memberships expected, %d missing, %d unexpected, %d unknown-outcome writes present\n",
		verdict, v.rolesChecked, v.expected, len(v.missing), len(v.extra), v.uncertainHit)
	for i, m := range v.missing {
		if i == 10 {
			break
		}
		fmt.Fprintf(out, "  missing: %s\n", m)
	}
	for i, m := range v.extra {
		if i == 10 {
			break
		}
		fmt.Fprintf(out, "  unexpected: %s\n", m)
	}
}

// passed says whether a run passed: verification clean, no wrong
// decision, no anomaly, and at most cfg.MaxErrors errors.
func passed(cfg *loadConfig, s *summary, v *verifyResult) bool {
	return v.ok() && s.wrong == 0 && len(s.anomalies) == 0 && s.errors <= cfg.MaxErrors
}

func sortedInts(m map[int]int64) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// loadavg is /proc/loadavg (1, 5, 15 minutes), to show how busy the
// machine was: the figures are only comparable between quiet runs.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
