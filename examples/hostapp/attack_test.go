package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// The three attacks of issue 23, run as a stranger would run them: against
// `hostapp -open` built and started as a process, over loopback, on SQLite
// and on PostgreSQL, with the default settings unless a test says
// otherwise. Each prints its figures (t.Logf) for docs/performance.md.
//
//	AUTH_TEST_ATTACKS=1 AUTH_TEST_POSTGRESQL_URL=postgres://... go test -count=1 -v -run TestOpenModeAttack ./examples/hostapp/

// batchBody is a POST /api/batch body of ops, each a JSON object.
func batchBody(ops []string) []byte {
	return []byte(`{"operations":[` + strings.Join(ops, ",") + `]}`)
}

// fanOutOps is attack 1's layout: role big with 3,000 permissions of 126
// characters, roles f0..f599 each inheriting big, user fan a member of
// all 600 (4,801 rows, about 450 KB of names).
func fanOutOps() []string {
	ops := []string{`{"op":"add_role","role":"big"}`}
	for i := range 3000 {
		ops = append(ops, fmt.Sprintf(`{"op":"add_permission","role":"big","permission":"%s"}`, fanOutPerm(i)))
	}
	for i := range 600 {
		ops = append(ops, fmt.Sprintf(`{"op":"add_role","role":"f%d"}`, i),
			fmt.Sprintf(`{"op":"add_inheritance","role":"f%d","parent":"big"}`, i),
			fmt.Sprintf(`{"op":"add_membership","user":"fan","role":"f%d"}`, i))
	}
	return ops
}

func fanOutPerm(i int) string { return fmt.Sprintf("p%04d-%s", i, strings.Repeat("x", 120)) }

// Attack 1, memory by fan-out: one batch of the layout, then one check of
// fan. The process's live heap (from the Go runtime's GC trace, after a
// full cycle) grows by at most 64 MiB over its level before the attack
// (it grew by about 300 MiB when each role kept its own copy of big's
// set), and the check answers no for a permission nobody holds and yes for
// one of big's. The resident set (VmRSS) is reported beside it.
func TestOpenModeAttackFanOutMemory(t *testing.T) {
	needAttacks(t)
	bin, _ := hostappBinary(t)
	body := batchBody(fanOutOps())
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		app := startOpen(t, bin, target, "GODEBUG=gctrace=1")
		key := uuid.NewString()
		// Warm the process up as a client of it would (connections,
		// a namespace, the cache of another client) before the level.
		other := uuid.NewString()
		app.must(t, http.MethodPost, "/api/role/r", other, nil, http.StatusCreated)
		app.must(t, http.MethodGet, "/api/has_permission/u/p", other, nil, http.StatusOK)

		liveBefore, rssBefore := app.liveHeap(t), app.rss()
		firstGC := app.logs.lastGC()
		start := time.Now()
		app.must(t, http.MethodPost, "/api/batch", key, body, http.StatusCreated)
		wrote := time.Since(start)
		start = time.Now()
		if result(t, app.must(t, http.MethodGet, "/api/has_permission/fan/nope", key, nil, http.StatusOK)) {
			t.Fatal("fan holds nope")
		}
		checked := time.Since(start)
		rssAfter := app.rss()
		liveAfter := app.liveHeap(t)
		var peakLive, peakHeap int64
		cycles := app.logs.gcsSince(firstGC)
		for _, g := range cycles {
			peakLive, peakHeap = max(peakLive, g.live), max(peakHeap, g.start, g.end)
		}
		if !result(t, app.must(t, http.MethodGet, "/api/has_permission/fan/"+fanOutPerm(2999), key, nil, http.StatusOK)) {
			t.Fatal("fan does not hold an inherited permission of big")
		}
		t.Logf("%s: batch of 4,801 rows (%.0f KB) in %v; check of fan (uncached) in %v", target.Name,
			float64(len(body))/1024, wrote.Round(time.Millisecond), checked.Round(time.Millisecond))
		t.Logf("%s: live heap after a full GC %d MiB -> %d MiB (%+d MiB); the largest live heap of the %d GC cycles meanwhile %d MiB, the largest heap %d MiB; RSS %s -> %s (%+.1f MiB)",
			target.Name, liveBefore, liveAfter, liveAfter-liveBefore, len(cycles), peakLive, peakHeap,
			mib(rssBefore), mib(rssAfter), float64(rssAfter-rssBefore)/(1<<20))
		if grew := liveAfter - liveBefore; grew > 64 {
			t.Errorf("the attack grew the live heap by %d MiB; want at most 64", grew)
		}
	})
}

// chainOps is attack 2's chain at the default depth limit: roles d0 to
// d32, d<i> inheriting d<i+1> (d0 the deepest, 32 inheritances above
// it), each granted p<i>; users u0..u<users-1> members of d0, users
// a0..a<users-1> members of all 33.
func chainOps(depth, users int) []string {
	var ops []string
	for i := 0; i <= depth; i++ {
		ops = append(ops, fmt.Sprintf(`{"op":"add_role","role":"d%d"}`, i),
			fmt.Sprintf(`{"op":"add_permission","role":"d%d","permission":"p%d"}`, i, i))
		if i > 0 {
			ops = append(ops, fmt.Sprintf(`{"op":"add_inheritance","role":"d%d","parent":"d%d"}`, i-1, i))
		}
		for u := range users {
			ops = append(ops, fmt.Sprintf(`{"op":"add_membership","user":"a%d","role":"d%d"}`, u, i))
		}
	}
	for u := range users {
		ops = append(ops, fmt.Sprintf(`{"op":"add_membership","user":"u%d","role":"d0"}`, u))
	}
	return ops
}

// percentile is the p-th percentile (0 to 100) of sorted d.
func percentile(d []time.Duration, p int) time.Duration {
	return d[min(len(d)-1, len(d)*p/100)]
}

// Attack 2, CPU by depth: a chain one deeper than the default limit (32)
// is refused with 422, by a batch and by the inheritance route; at the
// limit, has_permission (a user in d0, and a user in all 33 roles),
// role_permissions?effective=true and has_permission?explain=true on the
// deepest role each answer in under 50 ms uncached (the median of 20 is
// asserted, the slowest reported). Then, while one stranger sends 8 such
// queries at a time in a loop, another client's GET /api/role/r keeps a
// p99 under 50 ms over 200 requests.
func TestOpenModeAttackDepth(t *testing.T) {
	needAttacks(t)
	bin, _ := hostappBinary(t)
	const depth, users, samples = 32, 20, 20
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		app := startOpen(t, bin, target)
		stranger, victim := uuid.NewString(), uuid.NewString()
		app.must(t, http.MethodPost, "/api/role/r", victim, nil, http.StatusCreated)
		app.must(t, http.MethodPost, "/api/batch", stranger, batchBody(chainOps(depth, users)), http.StatusCreated)

		// One link more: d32 inheriting d33 would make d0 33 deep.
		code, b, _ := app.do(t, http.MethodPost, "/api/batch", stranger, batchBody([]string{
			fmt.Sprintf(`{"op":"add_role","role":"d%d"}`, depth+1),
			fmt.Sprintf(`{"op":"add_inheritance","role":"d%d","parent":"d%d"}`, depth, depth+1)}))
		if code != http.StatusUnprocessableEntity || !bytes.Contains(b, []byte("AUTH_MAX_INHERITANCE_DEPTH")) {
			t.Fatalf("a batch one link deeper: %d %s, want 422 naming AUTH_MAX_INHERITANCE_DEPTH", code, b)
		}
		var refusal struct{ Error string }
		json.Unmarshal(b, &refusal)
		t.Logf("%s: a batch one link deeper: %d %s", target.Name, code, refusal.Error)
		app.must(t, http.MethodPost, fmt.Sprintf("/api/role/d%d", depth+1), stranger, nil, http.StatusCreated)
		app.must(t, http.MethodPost, fmt.Sprintf("/api/role/d%d/inherits/d%d", depth, depth+1), stranger, nil, http.StatusUnprocessableEntity)
		t.Logf("%s: POST /api/role/d%d/inherits/d%d: 422", target.Name, depth, depth+1)

		// Uncached: each sample asks about a user not asked about before,
		// after a grant on d32 that drops every role set of the chain.
		top := fmt.Sprint("p", depth)
		grants := 0
		drop := func() {
			grants++
			app.must(t, http.MethodPost, fmt.Sprintf("/api/permission/d%d/g%d", depth, grants), stranger, nil, http.StatusCreated)
		}
		for _, q := range []struct {
			name string
			path func(i int) string
			want func(data any) bool
		}{
			{"has_permission (a member of d0)", func(i int) string { return fmt.Sprintf("/api/has_permission/u%d/%s", i, top) },
				func(d any) bool { return result(t, d) }},
			{"has_permission (a member of all 33)", func(i int) string { return fmt.Sprintf("/api/has_permission/a%d/%s", i, top) },
				func(d any) bool { return result(t, d) }},
			{"role_permissions/d0?effective=true", func(int) string { return "/api/role_permissions/d0?effective=true" },
				func(d any) bool { l, _ := d.([]any); return len(l) >= depth+1 }},
			{"has_permission?explain=true (a member of d0)", func(i int) string { return fmt.Sprintf("/api/has_permission/u%d/%s?explain=true", i, top) },
				func(d any) bool { return result(t, d) }},
		} {
			var times []time.Duration
			for i := range samples {
				drop()
				path := q.path(i)
				code, b, took := app.do(t, http.MethodGet, path, stranger, nil)
				var env struct{ Data any }
				if code != http.StatusOK || json.Unmarshal(b, &env) != nil || !q.want(env.Data) {
					t.Fatalf("%s: %d %.300s", path, code, b)
				}
				times = append(times, took)
			}
			slices.Sort(times)
			med := percentile(times, 50)
			t.Logf("%s: %s, uncached, over loopback: median %v, slowest %v", target.Name, q.name,
				med.Round(10*time.Microsecond), times[len(times)-1].Round(10*time.Microsecond))
			if med >= 50*time.Millisecond {
				t.Errorf("%s: %s: median %v, want under 50 ms", target.Name, q.name, med)
			}
		}

		// The stranger's 8 at a time, in a loop, ignoring Retry-After;
		// the other client's reads. The client runs on the same cores as
		// the app and its database, and so does whatever else this machine
		// runs: a round whose p99 misses is run again (at most 3 rounds),
		// with the other client's reads alone first, to tell the attack's
		// share from the machine's.
		queries := []string{
			"/api/role_permissions/d0?effective=true",
			"/api/has_permission/u0/" + top + "?explain=true",
			"/api/has_permission/a0/" + top + "?explain=true",
			"/api/permission/d0/" + top + "?explain=true",
		}
		best := time.Duration(1<<63 - 1)
		for round := 1; round <= 3 && best >= 50*time.Millisecond; round++ {
			alone := victimReads(t, app, victim)
			appCPU, testCPU := app.cpu(), selfCPU()
			r := underAttack(t, app, stranger, queries, func() []time.Duration { return victimReads(t, app, victim) })
			appCPU, testCPU = app.cpu()-appCPU, selfCPU()-testCPU
			t.Logf("%s: round %d: the other client's GET /api/role/r alone: p50 %v, p99 %v; while the stranger sent 8 at a time (%d answered, %d refused 429 in %v; CPU: the app %.2f cores, this test's clients %.2f): p50 %v, p99 %v, slowest %v (200 requests each)",
				target.Name, round, ms(percentile(alone, 50)), ms(percentile(alone, 99)),
				r.ok, r.limited, r.elapsed.Round(time.Millisecond), appCPU.Seconds()/r.elapsed.Seconds(), testCPU.Seconds()/r.elapsed.Seconds(),
				ms(percentile(r.times, 50)), ms(percentile(r.times, 99)), ms(r.times[len(r.times)-1]))
			if r.other > 0 {
				t.Errorf("%d of the stranger's queries answered neither 200 nor 429", r.other)
			}
			best = min(best, percentile(r.times, 99))
		}
		if best >= 50*time.Millisecond {
			t.Errorf("%s: the other client's p99 %v at best in 3 rounds, want under 50 ms", target.Name, best)
		}
	})
}

func ms(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }

// victimReads sends 200 GET /api/role/r one after the other and returns
// their times, sorted.
func victimReads(t *testing.T, app *openApp, key string) []time.Duration {
	t.Helper()
	var times []time.Duration
	for range 200 {
		code, b, took := app.do(t, http.MethodGet, "/api/role/r", key, nil)
		if code != http.StatusOK {
			t.Fatalf("the other client's GET /api/role/r: %d %.200s", code, b)
		}
		times = append(times, took)
	}
	slices.Sort(times)
	return times
}

// attackRound is what underAttack saw.
type attackRound struct {
	times              []time.Duration // measure's
	ok, limited, other int64           // the stranger's answers
	elapsed            time.Duration
}

// underAttack runs measure while 8 goroutines send the stranger's queries
// in a loop, each at once after the last answer (a 429 included).
func underAttack(t *testing.T, app *openApp, key string, queries []string, measure func() []time.Duration) attackRound {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var ok, limited, other atomic.Int64
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				code, _, _, err := app.send(http.MethodGet, queries[(g+i)%len(queries)], key, nil)
				switch {
				case err != nil:
					other.Add(1)
					return
				case code == http.StatusOK:
					ok.Add(1)
				case code == http.StatusTooManyRequests:
					limited.Add(1)
				default:
					other.Add(1)
				}
			}
		}()
	}
	for ok.Load()+limited.Load()+other.Load() < 16 { // the loop is running
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	times := measure()
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	return attackRound{times: times, ok: ok.Load(), limited: limited.Load(), other: other.Load(), elapsed: elapsed}
}

// noopBatchBody is a POST /api/batch body of n del_permission of absent
// permissions of role r, names of 116 characters: 50,000 of them are just
// under 8 MiB, the batch body limit.
func noopBatchBody(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"operations":[`)
	pad := strings.Repeat("x", 108)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"op":"del_permission","role":"r","permission":"%s%08d"}`, pad, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// Attack 3, storage by no-ops: six 8 MiB batches of 50,000 del_permission
// of absent permissions from one stranger. With the defaults (the batches
// pass every open-mode limit: a batch is one write, 8 MiB is the batch
// body limit) they add one audit record each, not 50,000. With
// AUTH_AUDIT_MAX_RECORDS=100, and single no-op deletes between the
// batches (30 before each) to push the table past it, the table stays
// within the bound plus 1% at every moment sampled. In both, another
// client's 40 change records all remain.
func TestOpenModeAttackNoopAudit(t *testing.T) {
	needAttacks(t)
	bin, _ := hostappBinary(t)
	body := noopBatchBody(50_000)
	if len(body) > 8<<20 {
		t.Fatalf("batch of %d bytes, over 8 MiB", len(body))
	}
	t.Logf("each batch: 50,000 operations, %.2f MiB", float64(len(body))/(1<<20))
	for _, c := range []struct {
		name    string
		bound   int
		singles int
	}{
		{"defaults", 1_000_000, 0},
		{"AUTH_AUDIT_MAX_RECORDS=100", 100, 30},
	} {
		t.Run(c.name, func(t *testing.T) {
			storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
				var extra []string
				if c.bound != 1_000_000 {
					extra = append(extra, fmt.Sprintf("AUTH_AUDIT_MAX_RECORDS=%d", c.bound))
				}
				app := startOpen(t, bin, target, extra...)
				db := app.openStore(t)
				count := func() (int64, error) {
					var n int64
					err := db.NewRaw("SELECT count(*) FROM rolegate_audit").Scan(t.Context(), &n)
					return n, err
				}
				victim, stranger := uuid.NewString(), uuid.NewString()
				const victimChanges = 40
				for i := range victimChanges {
					app.must(t, http.MethodPost, fmt.Sprintf("/api/role/v%d", i), victim, nil, http.StatusCreated)
				}
				app.must(t, http.MethodPost, "/api/role/r", stranger, nil, http.StatusCreated)
				before, err := count()
				if err != nil {
					t.Fatal(err)
				}

				var maxSeen atomic.Int64
				var sampleErr atomic.Value
				samples := 0
				sample := func() {
					n, err := count()
					if err != nil {
						sampleErr.Store(err)
						return
					}
					if n > maxSeen.Load() {
						maxSeen.Store(n)
					}
				}
				stop := make(chan struct{})
				var wg sync.WaitGroup
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						select {
						case <-stop:
							return
						default:
						}
						sample()
						samples++
						time.Sleep(2 * time.Millisecond)
					}
				}()
				var batchTimes []time.Duration
				singles, limited := 0, 0
				start := time.Now()
				for round := range 6 {
					for i := range c.singles {
						path := fmt.Sprintf("/api/permission/r/absent-%d-%d", round, i)
						for {
							code, b, _ := app.do(t, http.MethodDelete, path, stranger, nil)
							if code == http.StatusTooManyRequests {
								limited++
								time.Sleep(100 * time.Millisecond)
								continue
							}
							if code != http.StatusOK {
								t.Fatalf("DELETE %s: %d %.200s", path, code, b)
							}
							singles++
							break
						}
					}
					// The singles may have spent the write rate: a batch then
					// waits as they do (the refusal is the rate working).
					code, b, took := app.do(t, http.MethodPost, "/api/batch", stranger, body)
					for code == http.StatusTooManyRequests {
						limited++
						time.Sleep(100 * time.Millisecond)
						code, b, took = app.do(t, http.MethodPost, "/api/batch", stranger, body)
					}
					if code != http.StatusOK {
						t.Fatalf("batch %d: %d %.300s", round+1, code, b)
					}
					var env struct {
						Data struct{ Results []any }
					}
					if err := json.Unmarshal(b, &env); err != nil || len(env.Data.Results) != 50_000 {
						t.Fatalf("batch %d: %d results, %v; want 50,000", round+1, len(env.Data.Results), err)
					}
					batchTimes = append(batchTimes, took)
					sample()
				}
				elapsed := time.Since(start)
				close(stop)
				wg.Wait()
				sample()
				if err := sampleErr.Load(); err != nil {
					t.Fatalf("counting the audit records: %v", err)
				}
				after, err := count()
				if err != nil {
					t.Fatal(err)
				}
				limit := int64(c.bound + c.bound/100)
				t.Logf("%s: six batches (%v each, the slowest %v) and %d single no-op deletes (%d writes refused 429 first) in %v; audit records %d before, %d after, at most %d in %d samples (bound %d + 1%% = %d)",
					target.Name, percentile(slices.Sorted(slices.Values(batchTimes)), 50).Round(time.Millisecond),
					slices.Max(batchTimes).Round(time.Millisecond), singles, limited, elapsed.Round(time.Millisecond),
					before, after, maxSeen.Load(), samples, c.bound, limit)
				if maxSeen.Load() > limit {
					t.Errorf("the audit table reached %d records, over AUTH_AUDIT_MAX_RECORDS %d + 1%%", maxSeen.Load(), c.bound)
				}
				if c.singles == 0 && after-before != 6 {
					t.Errorf("six no-op batches added %d audit records, want 6 (one each)", after-before)
				}

				// The victim's records through the REST audit route.
				recs := app.must(t, http.MethodGet, "/api/audit?action=add_role&limit=1000", victim, nil, http.StatusOK)
				created := 0
				for _, r := range recs.([]any) {
					if m := r.(map[string]any); m["outcome"] == "created" {
						created++
					}
				}
				t.Logf("%s: the other client's change records: %d of %d", target.Name, created, victimChanges)
				if created != victimChanges {
					t.Errorf("the other client kept %d of its %d change records", created, victimChanges)
				}
				recs = app.must(t, http.MethodGet, "/api/audit?action=batch&limit=10", stranger, nil, http.StatusOK)
				if l := recs.([]any); len(l) == 0 || l[0].(map[string]any)["outcome"] != "unchanged: 50000 operations" {
					t.Errorf("the stranger's newest batch record: %v, want one record of its 50,000 no-ops", l)
				}
			})
		})
	}
}

// Memory by concurrent batches: 32 no-op batches of 8 MiB sent at once,
// from one key and from 32 keys, make the process's resident set grow by
// at most 256 MiB at any moment sampled: a batch is let in before its body
// is read, one per client and two of all clients at a time, and the rest
// are refused 429 unread.
func TestOpenModeAttackConcurrentBatches(t *testing.T) {
	needAttacks(t)
	bin, _ := hostappBinary(t)
	body := noopBatchBody(50_000)
	const senders, maxGrowth = 32, 256 << 20
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		app := startOpen(t, bin, target)
		for _, keys := range []int{1, senders} {
			clients := make([]string, keys)
			for i := range clients {
				clients[i] = uuid.NewString()
				app.must(t, http.MethodPost, "/api/role/r", clients[i], nil, http.StatusCreated)
			}
			before := app.rss()
			var peak atomic.Int64
			peak.Store(before)
			stop := make(chan struct{})
			var sampler sync.WaitGroup
			sampler.Add(1)
			go func() {
				defer sampler.Done()
				for {
					if r := app.rss(); r > peak.Load() {
						peak.Store(r)
					}
					select {
					case <-stop:
						return
					case <-time.After(10 * time.Millisecond):
					}
				}
			}()
			var ok, limited, other atomic.Int32
			var wg sync.WaitGroup
			start := time.Now()
			for i := range senders {
				wg.Add(1)
				go func() {
					defer wg.Done()
					code, _, _, err := app.send(http.MethodPost, "/api/batch", clients[i%keys], body)
					switch {
					case err == nil && code == http.StatusOK:
						ok.Add(1)
					case err == nil && code == http.StatusTooManyRequests:
						limited.Add(1)
					default:
						other.Add(1)
					}
				}()
			}
			wg.Wait()
			close(stop)
			sampler.Wait()
			t.Logf("%s: %d batches of %s at once from %d key(s) in %v: %d answered, %d refused 429, %d otherwise; RSS %s before, at most %s (+%s)",
				target.Name, senders, mib(int64(len(body))), keys, time.Since(start).Round(time.Millisecond), ok.Load(), limited.Load(), other.Load(),
				mib(before), mib(peak.Load()), mib(peak.Load()-before))
			if ok.Load() == 0 || other.Load() > 0 {
				t.Errorf("%d answered, %d neither 200 nor 429; want some 200 and the rest 429", ok.Load(), other.Load())
			}
			if peak.Load()-before > maxGrowth {
				t.Errorf("RSS grew by %s, over %s", mib(peak.Load()-before), mib(maxGrowth))
			}
		}
	})
}
