package authz

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/prommetrics"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// benchSize is one workload of the benchmark: users user-N, roles
// role-N, as many permissions perm-N as roles; each role holds 10 distinct
// permissions and each user is a member of 2 distinct roles, drawn from a
// fixed-seed generator.
type benchSize struct {
	name         string
	users, roles int
}

var benchSizes = []benchSize{
	{"small", 1_000, 100},
	{"medium", 10_000, 1_000},
	{"large", 100_000, 10_000},
}

// benchData is a workload: its grants and the 512 checks, alternating
// allowed and denied.
type benchData struct {
	rolePerms [][]int // role -> permissions
	userRoles [][]int // user -> roles
	checks    []benchCheck
	floor     map[string]map[string]struct{} // user -> permission set
}

type benchCheck struct {
	user, perm string
	want       bool
}

func makeBenchData(s benchSize) *benchData {
	rng := rand.New(rand.NewPCG(1, 2))
	d := &benchData{rolePerms: make([][]int, s.roles), userRoles: make([][]int, s.users)}
	for r := range d.rolePerms {
		d.rolePerms[r] = distinct(rng, 10, s.roles)
	}
	for u := range d.userRoles {
		d.userRoles[u] = distinct(rng, 2, s.roles)
	}
	d.floor = make(map[string]map[string]struct{}, s.users)
	for u, roles := range d.userRoles {
		set := map[string]struct{}{}
		for _, r := range roles {
			for _, p := range d.rolePerms[r] {
				set[fmt.Sprintf("perm-%d", p)] = struct{}{}
			}
		}
		d.floor[fmt.Sprintf("user-%d", u)] = set
	}
	for len(d.checks) < 512 {
		u := fmt.Sprintf("user-%d", rng.IntN(s.users))
		p := fmt.Sprintf("perm-%d", rng.IntN(s.roles))
		_, has := d.floor[u][p]
		if has == (len(d.checks)%2 == 0) {
			d.checks = append(d.checks, benchCheck{u, p, has})
		}
	}
	return d
}

func distinct(rng *rand.Rand, n, max int) []int {
	seen := map[int]bool{}
	out := make([]int, 0, n)
	for len(out) < n {
		if v := rng.IntN(max); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// load writes the workload through the real store, in one transaction for
// speed (storage functions accept the transaction like any bun.IDB).
func (d *benchData) load(tb testing.TB, c *Client) {
	tb.Helper()
	ctx := context.Background()
	var rev int64
	err := c.az.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for r, perms := range d.rolePerms {
			role := fmt.Sprintf("role-%d", r)
			if _, err := storage.AddRole(ctx, tx, c.scope, role, ""); err != nil {
				return err
			}
			for _, p := range perms {
				if _, err := storage.AddPermission(ctx, tx, c.scope, role, fmt.Sprintf("perm-%d", p)); err != nil {
					return err
				}
			}
		}
		for u, roles := range d.userRoles {
			for _, r := range roles {
				if _, err := storage.AddMembership(ctx, tx, c.scope, "", fmt.Sprintf("user-%d", u), fmt.Sprintf("role-%d", r)); err != nil {
					return err
				}
			}
		}
		var err error
		rev, err = bumpRevision(ctx, tx, c.scope.NS)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	// The bulk load bypassed the change log: count its revision as seen
	// (catching up flushes the cache, empty still), so the change feed
	// does not flush the cache in the middle of a measurement, and start
	// from an empty cache.
	if _, err := c.az.feed.CatchUp(ctx, c.follow, rev); err != nil {
		tb.Fatal(err)
	}
	c.cache.Flush()
}

// benchStore opens rolegate on a fresh SQLite file with one workload.
func benchStore(b *testing.B, s benchSize) (*Client, *benchData) {
	b.Helper()
	az := openTarget(b, storagetest.SQLite(b), nil)
	c := mustClient(b, az, newKey())
	d := makeBenchData(s)
	d.load(b, c)
	return c, d
}

// BenchmarkUserHasPermission measures the warm check through the public
// library API against the floor: the same checks on a plain precomputed
// map[user]map[perm]struct{}.
func BenchmarkUserHasPermission(b *testing.B) {
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			c, d := benchStore(b, s)
			benchChecks(b, d, func(ctx context.Context, ck *benchCheck) (bool, error) {
				return c.UserHasPermission(ctx, ck.user, ck.perm)
			})
		})
	}
}

// BenchmarkUserHasPermissionBounded is BenchmarkUserHasPermission with
// time bounds in the workload: every other user's memberships and every
// third grant carry a starts_at an hour past and an expires_at a year
// ahead (so the answers, and the floor, stay those of the flat workload).
// The warm check must cost what it does without bounds: 0 allocations,
// within 1.3x the floor.
func BenchmarkUserHasPermissionBounded(b *testing.B) {
	for _, s := range benchSizes[:2] {
		b.Run(s.name, func(b *testing.B) {
			az := openTarget(b, storagetest.SQLite(b), nil)
			c := mustClient(b, az, newKey())
			d := makeBenchData(s)
			now := time.Now()
			window := storage.TimeBounds{Starts: now.Add(-time.Hour), Expires: now.Add(365 * 24 * time.Hour)}
			d.loadWith(b, c, func(i int) storage.TimeBounds {
				if i%2 == 0 {
					return window
				}
				return storage.TimeBounds{}
			}, func(i int) storage.TimeBounds {
				if i%3 == 0 {
					return window
				}
				return storage.TimeBounds{}
			})
			benchChecks(b, d, func(ctx context.Context, ck *benchCheck) (bool, error) {
				return c.UserHasPermission(ctx, ck.user, ck.perm)
			})
		})
	}
}

// loadWith is load with time bounds: member(u) are user u's memberships'
// bounds, grant(i) the bounds of the i-th grant written.
func (d *benchData) loadWith(tb testing.TB, c *Client, member, grant func(int) storage.TimeBounds) {
	tb.Helper()
	ctx := context.Background()
	var rev int64
	err := c.az.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		n := 0
		for r, perms := range d.rolePerms {
			role := fmt.Sprintf("role-%d", r)
			if _, err := storage.AddRole(ctx, tx, c.scope, role, ""); err != nil {
				return err
			}
			for _, p := range perms {
				if _, err := storage.PutPermission(ctx, tx, c.scope, role, fmt.Sprintf("perm-%d", p), grant(n)); err != nil {
					return err
				}
				n++
			}
		}
		for u, roles := range d.userRoles {
			for _, r := range roles {
				if _, err := storage.PutMembership(ctx, tx, c.scope, "", fmt.Sprintf("user-%d", u), fmt.Sprintf("role-%d", r), member(u)); err != nil {
					return err
				}
			}
		}
		var err error
		rev, err = bumpRevision(ctx, tx, c.scope.NS)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := c.az.feed.CatchUp(ctx, c.follow, rev); err != nil {
		tb.Fatal(err)
	}
	c.cache.Flush()
}

// loadChained writes the workload with each role's 10 permissions spread
// over a 3-deep inheritance chain: role-N holds 4 of them and inherits from
// role-N-a (3 more), which inherits from role-N-b (the last 3). Every
// user's effective permissions, hence every check's answer, stay those of
// the flat workload.
func (d *benchData) loadChained(tb testing.TB, c *Client) {
	tb.Helper()
	ctx := context.Background()
	var rev int64
	err := c.az.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for r, perms := range d.rolePerms {
			chain := []string{fmt.Sprintf("role-%d", r), fmt.Sprintf("role-%d-a", r), fmt.Sprintf("role-%d-b", r)}
			parts := [][]int{perms[:4], perms[4:7], perms[7:]}
			for i, role := range chain {
				if _, err := storage.AddRole(ctx, tx, c.scope, role, ""); err != nil {
					return err
				}
				for _, p := range parts[i] {
					if _, err := storage.AddPermission(ctx, tx, c.scope, role, fmt.Sprintf("perm-%d", p)); err != nil {
						return err
					}
				}
				if i > 0 {
					if _, err := storage.AddInheritance(ctx, tx, c.scope, chain[i-1], role); err != nil {
						return err
					}
				}
			}
		}
		for u, roles := range d.userRoles {
			for _, r := range roles {
				if _, err := storage.AddMembership(ctx, tx, c.scope, "", fmt.Sprintf("user-%d", u), fmt.Sprintf("role-%d", r)); err != nil {
					return err
				}
			}
		}
		var err error
		rev, err = bumpRevision(ctx, tx, c.scope.NS)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	// As in load: the bulk load's revision counts as seen.
	if _, err := c.az.feed.CatchUp(ctx, c.follow, rev); err != nil {
		tb.Fatal(err)
	}
	c.cache.Flush()
}

// BenchmarkUserHasPermissionChained is BenchmarkUserHasPermission with
// every role's grants spread over a 3-deep inheritance chain.
func BenchmarkUserHasPermissionChained(b *testing.B) {
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			az := openTarget(b, storagetest.SQLite(b), nil)
			c := mustClient(b, az, newKey())
			d := makeBenchData(s)
			d.loadChained(b, c)
			benchChecks(b, d, func(ctx context.Context, ck *benchCheck) (bool, error) {
				return c.UserHasPermission(ctx, ck.user, ck.perm)
			})
		})
	}
}

// BenchmarkUserHasPermissionIn is BenchmarkUserHasPermission asked in a
// scope (the users' memberships are global, so a denied check also looks
// at the user's cached part for the scope).
func BenchmarkUserHasPermissionIn(b *testing.B) {
	for _, s := range benchSizes[:2] {
		b.Run(s.name, func(b *testing.B) {
			c, d := benchStore(b, s)
			benchChecks(b, d, func(ctx context.Context, ck *benchCheck) (bool, error) {
				return c.UserHasPermissionIn(ctx, "org-42", ck.user, ck.perm)
			})
		})
	}
}

// benchChecks warms the cache with the workload's checks (checking the
// answers), then times them.
func benchChecks(b *testing.B, d *benchData, check func(context.Context, *benchCheck) (bool, error)) {
	ctx := context.Background()
	for i := range d.checks {
		ck := &d.checks[i]
		if got, err := check(ctx, ck); err != nil || got != ck.want {
			b.Fatalf("%s %s = %v, %v; want %v", ck.user, ck.perm, got, err, ck.want)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ck := &d.checks[i&511]
		if ok, _ := check(ctx, ck); ok != ck.want {
			b.Fatal("wrong answer")
		}
	}
	b.StopTimer()
	b.ReportMetric(floorRatio(d, check), "x-floor")
}

// floorRatio is the check's time over the floor's (BenchmarkFloor's plain
// map) on the same 512 checks, measured in alternation, 400 rounds of
// each, and the median of the rounds' ratios taken: on a busy machine
// both sides of a round see the same load, where two benchmarks run
// seconds apart do not.
func floorRatio(d *benchData, check func(context.Context, *benchCheck) (bool, error)) float64 {
	ctx := context.Background()
	checks := func() {
		for i := range d.checks {
			ck := &d.checks[i]
			if ok, _ := check(ctx, ck); ok != ck.want {
				panic("wrong answer")
			}
		}
	}
	floor := func() {
		for i := range d.checks {
			ck := &d.checks[i]
			if _, ok := d.floor[ck.user][ck.perm]; ok != ck.want {
				panic("wrong answer")
			}
		}
	}
	ratios := make([]float64, 400)
	for r := range ratios {
		first, second := checks, floor
		if r%2 == 1 {
			first, second = floor, checks
		}
		t0 := time.Now()
		first()
		t1 := time.Now()
		second()
		t2 := time.Now()
		a, f := t1.Sub(t0), t2.Sub(t1)
		if r%2 == 1 {
			a, f = f, a
		}
		ratios[r] = float64(a) / float64(max(f, 1))
	}
	slices.Sort(ratios)
	return ratios[len(ratios)/2]
}

// BenchmarkFloor is the same checks on a plain precomputed map: the
// fastest a check could be.
func BenchmarkFloor(b *testing.B) {
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			d := makeBenchData(s)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ck := &d.checks[i&511]
				if _, ok := d.floor[ck.user][ck.perm]; ok != ck.want {
					b.Fatal("wrong answer")
				}
			}
		})
	}
}

// BenchmarkColdCheck measures a check for a user not in the cache, at the
// large size on SQLite: user-not-cached reads the user's roles (their
// permission sets, shared with other members, stay cached); nothing-cached
// also reads the roles' sets (one read for the user, one for all its roles).
func BenchmarkColdCheck(b *testing.B) {
	c, d := benchStore(b, benchSizes[2])
	ctx := context.Background()
	for _, mode := range []string{"user-not-cached", "nothing-cached"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ck := &d.checks[i&511]
				if mode == "nothing-cached" {
					c.cache.Flush()
				} else {
					c.cache.InvalidateUser(ck.user)
				}
				if ok, err := c.UserHasPermission(ctx, ck.user, ck.perm); err != nil || ok != ck.want {
					b.Fatal("wrong answer", err)
				}
			}
		})
	}
}

// BenchmarkCacheMemory reports the heap the cache holds with every user
// of the large workload cached.
func BenchmarkCacheMemory(b *testing.B) {
	c, d := benchStore(b, benchSizes[2])
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		c.cache.Flush()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for u := range d.userRoles {
			if _, err := c.UserHasPermission(ctx, fmt.Sprintf("user-%d", u), "perm-0"); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		if c.cache.Len() != len(d.userRoles) {
			b.Fatalf("cached %d users, want %d", c.cache.Len(), len(d.userRoles))
		}
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB-held")
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(d.userRoles)), "B/user")
	}
}

// BenchmarkGuard sends a warm request through a real gin.Engine to a
// guarded route and to the same route unguarded; guarded-metrics is the
// guarded route with metrics on (a registry of its own), the decision log
// off.
func BenchmarkGuard(b *testing.B) {
	router := func(metrics bool) *gin.Engine {
		az := openTarget(b, storagetest.SQLite(b), func(cfg *Config) {
			cfg.ClientKey = "6f1c2e9a-3b4d-4c5e-9f60-718293a4b5c6"
			cfg.Resolver = func(c *gin.Context) (string, error) { return "sara", nil }
			if metrics {
				cfg.Observer = prommetrics.New(prometheus.NewRegistry())
			}
		})
		ctx := context.Background()
		c := mustHost(b, az)
		c.AddRole(ctx, "editor", "")
		c.AddPermission(ctx, "editor", "edit")
		c.AddMembership(ctx, "sara", "editor")
		gin.SetMode(gin.ReleaseMode)
		r := gin.New()
		ok := func(c *gin.Context) { c.Status(http.StatusNoContent) }
		r.GET("/open", ok)
		r.GET("/guarded", az.RequirePermission("edit"), ok)
		return r
	}
	off, on := router(false), router(true)
	for _, bc := range []struct {
		name, path string
		r          *gin.Engine
	}{{"open", "/open", off}, {"guarded", "/guarded", off}, {"guarded-metrics", "/guarded", on}} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, bc.path, nil)
			w := &discardWriter{h: http.Header{}}
			bc.r.ServeHTTP(w, req)
			if w.code != http.StatusNoContent {
				b.Fatalf("%s answered %d", bc.path, w.code)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				bc.r.ServeHTTP(w, req)
			}
		})
	}
}

// discardWriter is a ResponseWriter that keeps nothing, so the benchmark
// measures the router and the guard, not a recorder.
type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }
