package authz

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// With the store's connections stalled (open, carrying nothing: not
// refused), the cache answers for at most AUTH_REVISION_CHECK_INTERVAL
// plus AUTH_LIVENESS_TIMEOUT; then every cache is flushed and the guards
// answer 503, each within the liveness bound, never 200 again while it
// lasts.
// Before the bound (5 s for the revision check, 30 s for the listener)
// a revoked user was allowed for 5.1 s.
func TestStalledStoreFailsClosedWithinTheBound(t *testing.T) {
	for _, tc := range []struct {
		name               string
		interval, liveness time.Duration
	}{
		{"defaults", time.Second, time.Second},
		{"short", 200 * time.Millisecond, 300 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := storagetest.PostgreSQL(t)
			u, _ := url.Parse(target.Config.PostgreSQLURL)
			proxy := newTCPProxy(t, u.Host)
			via := target
			pu := *u
			pu.Host = proxy.addr
			via.Config.PostgreSQLURL = pu.String()

			key := newKey()
			a := openTarget(t, via, func(cfg *Config) {
				cfg.ClientKey = key
				cfg.RevisionCheckInterval = tc.interval
				cfg.LivenessTimeout = tc.liveness
				cfg.Resolver = func(*gin.Context) (string, error) { return "sara", nil }
			})
			t.Cleanup(func() { proxy.frozen.Store(false) }) // before a's Close (cleanups run last first)
			b := openTarget(t, target, nil)
			ctx := context.Background()
			cb := mustClient(t, b, key)
			seed(t,
				func() (bool, error) { return cb.AddRole(ctx, "editor", "") },
				func() (bool, error) { return cb.AddPermission(ctx, "editor", "edit") },
				func() (bool, error) { return cb.AddMembership(ctx, "sara", "editor") },
			)
			r := gin.New()
			r.GET("/edit", a.RequirePermission("edit"), func(c *gin.Context) { c.Status(http.StatusOK) })
			status := func() int {
				w := httptest.NewRecorder()
				r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/edit", nil))
				return w.Code
			}
			eventually(t, 5*time.Second, "guard allows sara", func() bool { return status() == http.StatusOK })

			proxy.frozen.Store(true)
			stalled := time.Now()
			if _, err := cb.DelMembership(ctx, "sara", "editor"); err != nil { // a cannot hear it
				t.Fatal(err)
			}
			bound := tc.interval + tc.liveness
			// slowest: the longest answer begun once the stall was noticed
			// (a first 503); a miss begun before waits out the driver's
			// read timeout (10 s) and answers 503 then.
			var lastAllow, first503, slowest, slowestBefore time.Duration
			for time.Since(stalled) < bound+3*tc.liveness+time.Second {
				begun := time.Now()
				noticed := first503 > 0
				s := status()
				if noticed {
					slowest = max(slowest, time.Since(begun))
				} else {
					slowestBefore = max(slowestBefore, time.Since(begun))
				}
				switch s {
				case http.StatusOK:
					if first503 > 0 {
						t.Fatalf("guard allowed %v after the stall began, after a 503 at %v", time.Since(stalled), first503)
					}
					lastAllow = begun.Sub(stalled)
				case http.StatusServiceUnavailable:
					if first503 == 0 {
						first503 = begun.Sub(stalled)
					}
				default:
					t.Fatalf("guard answered %d with the store stalled", s)
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Logf("interval %v, liveness %v: last allow %v after the stall began, first 503 at %v, slowest answer after it %v (before it %v) (load %s)",
				tc.interval, tc.liveness, lastAllow.Round(time.Millisecond), first503.Round(time.Millisecond),
				slowest.Round(time.Millisecond), slowestBefore.Round(time.Millisecond), loadAverage())
			// A margin for a loaded machine: the check's own scheduling.
			if lastAllow > bound+300*time.Millisecond {
				t.Errorf("allowed %v after the stall began; the bound is %v", lastAllow, bound)
			}
			if first503 == 0 || first503 > bound+tc.liveness+500*time.Millisecond {
				t.Errorf("first 503 at %v, want within %v (and the answer bounded by the liveness)", first503, bound+tc.liveness)
			}
			if slowest > tc.liveness+time.Second {
				t.Errorf("a guard held a request %v with the store stalled, once it was noticed", slowest)
			}
		})
	}
}

// loadAverage is the first field of /proc/loadavg ("?" elsewhere), for
// figures measured on a shared machine.
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
