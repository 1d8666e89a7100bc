package authz

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz/internal/cache"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// BenchmarkChurn is the churn measurement through the public
// library API: at the medium size, checking goroutines (GOMAXPROCS of
// them; 2 on the reference machine) check random warm users while a
// writer adds or removes a permission of a random role at a fixed rate.
// It reports the checks per second; compare writes-0 with writes-200, or
// read x-quiet of alternating: the median, over 8 rounds, of the rate in
// 250 ms with 200 writes a second over the rate in the 250 ms before
// without, every user warmed again before each round. sustained is the
// issue's measure: one checking goroutine, 4 s quiet against 4 s with 200
// grant changes a second really made, nothing warmed between.
func BenchmarkChurn(b *testing.B) {
	for _, db := range []string{"sqlite", "postgresql"} {
		b.Run(db, func(b *testing.B) {
			az, c, d := warmMedium(b, db)
			size := benchSizes[1]
			users := make([]string, size.users)
			for u := range users {
				users[u] = fmt.Sprintf("user-%d", u)
			}
			for _, rate := range []int{0, 200} {
				b.Run(fmt.Sprintf("writes-%d", rate), func(b *testing.B) {
					benchChurn(b, c, users, size.roles, rate)
				})
			}
			// The two rates of one machine drift apart between runs seconds
			// apart; in alternation they see the same load.
			b.Run("alternating", func(b *testing.B) {
				var ratios []float64
				for range max(b.N, 8) {
					// Warm again what the last busy window dropped, so that
					// the quiet window does not pay for its rebuilds.
					for _, u := range users {
						c.UserHasPermission(context.Background(), u, "perm-1")
					}
					quiet := churnWindow(c, users, size.roles, 0, 250*time.Millisecond)
					busy := churnWindow(c, users, size.roles, 200, 250*time.Millisecond)
					ratios = append(ratios, busy/quiet)
				}
				slices.Sort(ratios)
				b.ReportMetric(ratios[len(ratios)/2], "x-quiet")
			})
			// Sustained: one checking goroutine, 4 s with no writes against
			// the 4 s after them with 200 grant changes a second (each one
			// changes something), nothing warmed again between, so the busy
			// window pays for every rebuild its writes cause.
			b.Run("sustained", func(b *testing.B) {
				benchSustained(b, c, c, users, size.roles)
			})
			// The same, with the changes made in another client's namespace
			// of the same shape on the same store: what one client's writes
			// cost another's checks (the store's work and the process's,
			// without this cache's renewal).
			b.Run("sustained-elsewhere", func(b *testing.B) {
				other := mustClient(b, az, newKey())
				d.load(b, other)
				benchSustained(b, c, other, users, size.roles)
			})
		})
	}
}

// warmMedium opens db ("sqlite" or "postgresql") with the medium
// workload loaded into one namespace of about 30,000 rows, every user
// warm. The namespace is the host's own, so a closed admin plane (the
// open mode's row limit does not apply to it).
func warmMedium(b *testing.B, db string) (*Authz, *Client, *benchData) {
	b.Helper()
	target := storagetest.SQLite
	if db == "postgresql" {
		target = storagetest.PostgreSQL
	}
	key := newKey()
	az := openTarget(b, target(b), func(cfg *Config) { cfg.ClientKey = key })
	c := mustClient(b, az, key)
	size := benchSizes[1]
	d := makeBenchData(size)
	d.load(b, c)
	ctx := context.Background()
	for u := range size.users {
		if _, err := c.UserHasPermission(ctx, fmt.Sprintf("user-%d", u), "perm-0"); err != nil {
			b.Fatal(err)
		}
	}
	return az, c, d
}

// benchSustained runs b.N rounds of windows (4 s quiet, then 4 s with 200
// grant changes a second to writer's roles, then 4 s quiet again) from
// one goroutine checking c, and reports the median over the rounds of the
// busy rate over the first quiet one (x-quiet), the checks of each window
// in nanoseconds a check, the changes a second really made, and the
// allocations a check of the busy window (every allocation of the
// process, the writer's included, over the checks). x-after is the second
// quiet rate over the first: what the changes left behind once they
// stopped (the entries they rebuilt, spread in memory, and a snapshot
// that lags them), as against what they cost while being made.
func benchSustained(b *testing.B, c, writer *Client, users []string, roles int) {
	const window = 4 * time.Second
	var ratios, afterRatios, cpuRatios, quietNs, busyNs, afterNs, quietCPU, busyCPU, others, changes, allocs []float64
	has := make([]bool, roles) // whether role-N holds "churn" now
	for r := range roles {
		ok, err := writer.HasPermission(context.Background(), fmt.Sprintf("role-%d", r), "churn")
		if err != nil {
			b.Fatal(err)
		}
		has[r] = ok
	}
	b.ResetTimer()
	for range b.N {
		quiet := sustainedWindow(b, c, writer, users, has, 0, window)
		busy := sustainedWindow(b, c, writer, users, has, 200, window)
		after := sustainedWindow(b, c, writer, users, has, 0, window)
		ratios, afterRatios = append(ratios, busy.rate/quiet.rate), append(afterRatios, after.rate/quiet.rate)
		quietNs, busyNs = append(quietNs, 1e9/quiet.rate), append(busyNs, 1e9/busy.rate)
		afterNs = append(afterNs, 1e9/after.rate)
		if quiet.cpuNs > 0 && busy.cpuNs > 0 {
			cpuRatios = append(cpuRatios, quiet.cpuNs/busy.cpuNs)
			quietCPU, busyCPU = append(quietCPU, quiet.cpuNs), append(busyCPU, busy.cpuNs)
			others = append(others, busy.others)
		}
		changes, allocs = append(changes, busy.changes), append(allocs, busy.allocs)
	}
	b.StopTimer()
	median := func(xs []float64) float64 {
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	b.ReportMetric(median(ratios), "x-quiet")
	b.ReportMetric(median(quietNs), "ns/check-quiet")
	b.ReportMetric(median(busyNs), "ns/check-busy")
	b.ReportMetric(median(afterRatios), "x-after")
	b.ReportMetric(median(afterNs), "ns/check-after")
	b.ReportMetric(median(changes), "changes/s")
	b.ReportMetric(median(allocs), "allocs/check-busy")
	if len(cpuRatios) > 0 {
		// The checking thread's own CPU time a check: what a busy machine
		// does to the rate (the thread waiting for a core) left out.
		b.ReportMetric(median(cpuRatios), "x-quiet-cpu")
		b.ReportMetric(median(quietCPU), "cpu-ns/check-quiet")
		b.ReportMetric(median(busyCPU), "cpu-ns/check-busy")
		// What the writes cost the rest of the process meanwhile (the
		// writer, renewal, the runtime), in cores: the work that shares
		// the machine with the checking thread.
		b.ReportMetric(median(others), "cores-beside-busy")
	}
}

// window is what one window of sustainedWindow measured.
type window struct {
	rate    float64 // checks a second
	cpuNs   float64 // the checking thread's CPU time a check (0: not known here)
	others  float64 // the rest of the process's CPU time, in cores (0: not known here)
	changes float64 // grant changes made a second
	allocs  float64 // the process's allocations a check
}

// sustainedWindow checks random users of c from the calling goroutine
// for d, while writer's roles take rate grant changes a second (none at
// 0): each adds "churn" to a random role that lacks it or removes it
// from one that holds it (has, kept by the writer), by deadline and up
// to 8 in flight, so that a slow write does not lower the rate.
func sustainedWindow(b *testing.B, c, writer *Client, users []string, has []bool, rate int, d time.Duration) window {
	ctx := context.Background()
	stop := make(chan struct{})
	var made atomic.Int64
	var wg sync.WaitGroup
	if rate > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(11, uint64(time.Now().UnixNano())))
			var mu sync.Mutex
			busy := map[int]bool{} // roles with a change in flight
			inflight := make(chan struct{}, 8)
			interval := time.Second / time.Duration(rate)
			next := time.Now()
			for {
				next = next.Add(interval)
				select {
				case <-stop:
					return
				case <-time.After(time.Until(next)):
				}
				mu.Lock()
				r := rng.IntN(len(has))
				for busy[r] {
					r = rng.IntN(len(has))
				}
				busy[r] = true
				add := !has[r]
				mu.Unlock()
				inflight <- struct{}{}
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer func() { <-inflight }()
					role := fmt.Sprintf("role-%d", r)
					var changed bool
					var err error
					if add {
						changed, err = writer.AddPermission(ctx, role, "churn")
					} else {
						changed, err = writer.DelPermission(ctx, role, "churn")
					}
					mu.Lock()
					defer mu.Unlock()
					delete(busy, r)
					if err != nil {
						b.Error(err)
						return
					}
					if !changed {
						b.Errorf("%s: the change changed nothing", role)
						return
					}
					has[r] = add
					made.Add(1)
				}()
			}
		}()
	}
	rng := rand.New(rand.NewPCG(5, uint64(rate)))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, cpuKnown := threadCPU()
	proc0 := processCPU()
	start := time.Now()
	n := 0
	// Labelled, so that a CPU profile tells the windows apart
	// (go tool pprof -tagfocus window=busy).
	label := "quiet"
	if rate > 0 {
		label = "busy"
	}
	pprof.Do(ctx, pprof.Labels("window", label), func(ctx context.Context) {
		for time.Since(start) < d {
			for range 256 {
				if _, err := c.UserHasPermission(ctx, users[rng.IntN(len(users))], "perm-1"); err != nil {
					b.Fatal(err)
				}
			}
			n += 256
		}
	})
	elapsed := time.Since(start)
	cpu1, _ := threadCPU()
	proc1 := processCPU()
	runtime.ReadMemStats(&after)
	close(stop)
	wg.Wait()
	w := window{
		rate:    float64(n) / elapsed.Seconds(),
		changes: float64(made.Load()) / elapsed.Seconds(),
		allocs:  float64(after.Mallocs-before.Mallocs) / float64(n),
	}
	if cpuKnown {
		w.cpuNs = float64(cpu1-cpu0) / float64(n)
		w.others = float64((proc1-proc0)-(cpu1-cpu0)) / float64(elapsed)
	}
	return w
}

// churnWindow checks from GOMAXPROCS goroutines for d while a writer
// grants at rate a second (none at 0), and returns the checks a second.
func churnWindow(c *Client, users []string, roles, rate int, d time.Duration) float64 {
	ctx := context.Background()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	if rate > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(7, uint64(time.Now().UnixNano())))
			t := time.NewTicker(time.Second / time.Duration(rate))
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
				}
				role := fmt.Sprintf("role-%d", rng.IntN(roles))
				if rng.IntN(2) == 0 {
					c.AddPermission(ctx, role, "churn")
				} else {
					c.DelPermission(ctx, role, "churn")
				}
			}
		}()
	}
	var checks atomic.Int64
	start := time.Now()
	for g := range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 3))
			n := int64(0)
			for time.Since(start) < d {
				for range 256 {
					c.UserHasPermission(ctx, users[rng.IntN(len(users))], "perm-1")
				}
				n += 256
			}
			checks.Add(n)
		}()
	}
	time.Sleep(d)
	close(stop)
	wg.Wait()
	return float64(checks.Load()) / time.Since(start).Seconds()
}

func benchChurn(b *testing.B, c *Client, users []string, roles, rate int) {
	ctx := context.Background()
	stop := make(chan struct{})
	var writes atomic.Int64
	var wg sync.WaitGroup
	if rate > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(9, 9))
			// By deadline, not by ticker, and up to 8 writes in flight: a
			// writer that got the CPU late, or whose store answers slowly
			// (PostgreSQL on a busy machine), catches up, so the rate holds.
			inflight := make(chan struct{}, 8)
			interval := time.Second / time.Duration(rate)
			next := time.Now()
			for {
				next = next.Add(interval)
				select {
				case <-stop:
					return
				case <-time.After(time.Until(next)):
				}
				role := fmt.Sprintf("role-%d", rng.IntN(roles))
				add := rng.IntN(2) == 0
				inflight <- struct{}{}
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer func() { <-inflight }()
					var err error
					if add {
						_, err = c.AddPermission(ctx, role, "churn")
					} else {
						_, err = c.DelPermission(ctx, role, "churn")
					}
					if err != nil {
						b.Error(err)
						return
					}
					writes.Add(1)
				}()
			}
		}()
	}
	var seed atomic.Uint64
	start := time.Now()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		rng := rand.New(rand.NewPCG(seed.Add(1), 1))
		for pb.Next() {
			if _, err := c.UserHasPermission(ctx, users[rng.IntN(len(users))], "perm-1"); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "checks/s")
	b.ReportMetric(float64(writes.Load())/elapsed.Seconds(), "writes/s")
}

// countingLoader counts the store reads of a cache: users, and reads of
// roles (one read covers all the roles a build misses).
type countingLoader struct {
	cache.Loader
	users, roles atomic.Int64
}

func (l *countingLoader) UserRoles(ctx context.Context, user string, at time.Time) ([]string, []cache.ScopedRole, time.Time, error) {
	l.users.Add(1)
	return l.Loader.UserRoles(ctx, user, at)
}

func (l *countingLoader) RoleGrants(ctx context.Context, roles []string, at time.Time, fn func(role string, sources []string, grants [][]string, next time.Time) error) error {
	l.roles.Add(1)
	return l.Loader.RoleGrants(ctx, roles, at, fn)
}

// 64 goroutines checking one uncached user, released together, read the
// store once: one read of the user's roles (their roles' sets already
// cached by another member), and, with the roles cold too, one read of
// both roles. On both databases, through the public API.
func TestConcurrentMissesReadTheStoreOnce(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		for _, role := range []string{"editor", "viewer"} {
			expect(t, "add_role", true)(c.AddRole(ctx, role, ""))
			expect(t, "add_permission", true)(c.AddPermission(ctx, role, "p-"+role))
			expect(t, "add_membership", true)(c.AddMembership(ctx, "sara", role))
			expect(t, "add_membership", true)(c.AddMembership(ctx, "jack", role))
		}
		for _, rolesWarm := range []bool{true, false} {
			counter := &countingLoader{Loader: storeLoader{c}}
			az.feed.Lock() // the watcher reads c.cache under it
			c.cache.Close()
			c.setCache(cache.New(counter, az.cacheBudget, nil))
			az.feed.Unlock()
			if rolesWarm {
				checkIs(t, c, "jack", "p-editor", true)
				checkIs(t, c, "jack", "p-viewer", true)
				counter.users.Store(0)
				counter.roles.Store(0)
			}
			start := make(chan struct{})
			var wg sync.WaitGroup
			for range 64 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					if ok, err := c.UserHasPermission(ctx, "sara", "p-viewer"); err != nil || !ok {
						t.Errorf("UserHasPermission = %v, %v", ok, err)
					}
				}()
			}
			close(start)
			wg.Wait()
			wantRoles := int64(0)
			if !rolesWarm {
				wantRoles = 1
			}
			if u, r := counter.users.Load(), counter.roles.Load(); u != 1 || r != wantRoles {
				t.Fatalf("roles warm %v: 64 concurrent checks of one uncached user read the store %d times for the user, %d for roles; want 1 and %d",
					rolesWarm, u, r, wantRoles)
			}
		}
	})
}

// Local writes that commit while the revision check reads the store move
// the cache's known revision past the one read; that is not a store gone
// back, and must not flush the cache. Concurrent grants to a role nobody
// holds, with the revision checked every millisecond, leave every cached
// user in place (no user is read from the store again).
func TestLocalWritesRacingTheRevisionCheckKeepTheCache(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, func(cfg *Config) { cfg.RevisionCheckInterval = time.Millisecond })
		c := mustClient(t, az, newKey())
		ctx := context.Background()
		expect(t, "add_role", true)(c.AddRole(ctx, "editor", ""))
		expect(t, "add_permission", true)(c.AddPermission(ctx, "editor", "edit"))
		expect(t, "add_role", true)(c.AddRole(ctx, "spare", ""))
		users := make([]string, 50)
		for i := range users {
			users[i] = fmt.Sprintf("user-%d", i)
			expect(t, "add_membership", true)(c.AddMembership(ctx, users[i], "editor"))
		}
		counter := &countingLoader{Loader: storeLoader{c}}
		az.feed.Lock()
		c.cache.Close()
		c.setCache(cache.New(counter, az.cacheBudget, nil))
		az.feed.Unlock()
		for _, u := range users {
			checkIs(t, c, u, "edit", true)
		}
		counter.users.Store(0)

		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 100 {
					if _, err := c.AddPermission(ctx, "spare", fmt.Sprintf("p-%d-%d", w, i)); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		time.Sleep(20 * time.Millisecond) // a few more revision checks
		for _, u := range users {
			checkIs(t, c, u, "edit", true)
		}
		if n := counter.users.Load(); n != 0 {
			t.Fatalf("%d users read from the store again after local writes: the cache was flushed", n)
		}
	})
}

// BenchmarkGrantChange is one grant change through the public API (a
// permission added to a role, then taken away, in turn) on a store of the
// medium size with every user warm: the write the churn benchmarks make
// 200 times a second, with its invalidation and renewal. Its CPU a change
// (cpu-us/change: the whole process's, renewal's goroutine included) is
// what those writes take from the checking cores.
func BenchmarkGrantChange(b *testing.B) {
	for _, db := range []string{"sqlite", "postgresql"} {
		b.Run(db, func(b *testing.B) {
			_, c, _ := warmMedium(b, db)
			ctx := context.Background()
			roles := make([]string, benchSizes[1].roles)
			for r := range roles {
				roles[r] = fmt.Sprintf("role-%d", r)
			}
			b.ReportAllocs()
			cpu0 := processCPU()
			b.ResetTimer()
			for i := range b.N {
				role := roles[(i/2)%len(roles)]
				var changed bool
				var err error
				if i%2 == 0 {
					changed, err = c.AddPermission(ctx, role, "churn")
				} else {
					changed, err = c.DelPermission(ctx, role, "churn")
				}
				if err != nil || !changed {
					b.Fatalf("%s: changed %v, %v", role, changed, err)
				}
			}
			b.StopTimer()
			if cpu := processCPU() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-us/change")
			}
		})
	}
}
