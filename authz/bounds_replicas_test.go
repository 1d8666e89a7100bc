package authz

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestExpiryRefusedOnBothReplicasWithinASecond: two host apps on one
// PostgreSQL, each with its own pool, cache and listener, on the real
// clock. A membership expiring 2 s ahead allows on both until its
// expires_at and is refused on both within 1 s after it, with no write in
// between: the background expiry is held off, and the revision has not
// moved when both refuse. The checks are the warm library check, polled
// every 5 ms on each replica.
func TestExpiryRefusedOnBothReplicasWithinASecond(t *testing.T) {
	target := storagetest.PostgreSQL(t)
	hold := func(c *Config) { c.expiryEvery = time.Hour } // no sweep: nothing is written
	a, b := openTarget(t, target, hold), openTarget(t, target, hold)
	ctx := context.Background()
	key := newKey()
	ca, cb := mustClient(t, a, key), mustClient(t, b, key)
	mustDo(t)(ca.AddRole(ctx, "editor", ""))
	mustDo(t)(ca.AddPermission(ctx, "editor", "edit"))
	expires := time.Now().Add(2 * time.Second).Truncate(time.Microsecond) // as the store keeps it
	mustDo(t)(ca.AddMembership(ctx, "contractor", "editor", ExpiresAt(expires)))
	rev, err := storage.Revision(ctx, a.db, ca.scope.NS)
	if err != nil {
		t.Fatal(err)
	}
	// Both replicas see the membership (b through the change feed).
	for _, c := range []*Client{ca, cb} {
		eventually(t, 5*time.Second, "the membership seen", func() bool {
			ok, err := c.UserHasPermission(ctx, "contractor", "edit")
			return ok && err == nil
		})
	}
	type seen struct {
		lastAllow, firstRefusal time.Time
		err                     error
	}
	results := make([]seen, 2)
	var wg sync.WaitGroup
	for i, c := range []*Client{ca, cb} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			deadline := expires.Add(3 * time.Second)
			for time.Now().Before(deadline) {
				// An allow is dated when its check began and a refusal when
				// its check ended: a goroutine descheduled between a check
				// and the clock's reading then cannot date an answer on the
				// wrong side of expires_at.
				began := time.Now()
				ok, err := c.UserHasPermission(ctx, "contractor", "edit")
				now := time.Now()
				switch {
				case err != nil:
					results[i].err = err
					return
				case ok:
					results[i].lastAllow = began
				default:
					results[i].firstRefusal = now
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	for i, r := range results {
		name := []string{"a", "b"}[i]
		switch {
		case r.err != nil:
			t.Fatalf("replica %s: %v", name, r.err)
		case r.firstRefusal.IsZero():
			t.Fatalf("replica %s still allowed 3 s after expires_at", name)
		case r.firstRefusal.Before(expires):
			t.Fatalf("replica %s refused %v before expires_at", name, expires.Sub(r.firstRefusal))
		case r.firstRefusal.Sub(expires) > time.Second:
			t.Fatalf("replica %s refused %v after expires_at; want within 1 s", name, r.firstRefusal.Sub(expires))
		}
		// A check answers from the cache with no clock of its own; the
		// entry is dropped by a timer at its boundary, so a check begun
		// in the timer's own lateness (a millisecond on a loaded machine)
		// may still allow: the bound is the refusal's, within 1 s.
		t.Logf("replica %s: refused %v after expires_at (last allow began %v after it)", name,
			r.firstRefusal.Sub(expires).Round(time.Millisecond), r.lastAllow.Sub(expires).Round(time.Microsecond))
	}
	if now, err := storage.Revision(ctx, a.db, ca.scope.NS); err != nil || now != rev {
		t.Fatalf("the revision moved from %d to %d (%v): something was written", rev, now, err)
	}
}
