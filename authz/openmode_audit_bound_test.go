package authz

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// The audit bound holds while it is written, not only on the retention's
// tick: with AUTH_AUDIT_MAX_RECORDS of 200, a client writing 5,000 change
// records in batches of 100 leaves the table within the bound, plus 1%
// (the share written before the pruner is woken), plus one batch, at
// every moment sampled; another client's change records, within its fair
// share, all remain.
func TestAuditBoundWhileWriting(t *testing.T) {
	const bound, batch, batches = 200, 100, 50
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		az := openTarget(t, target, func(c *Config) { c.AuditMaxRecords = bound })
		victim, writer := newKey(), newKey()
		v, w := mustClient(t, az, victim), mustClient(t, az, writer)
		const victimChanges = 30
		for i := range victimChanges {
			if _, err := v.AddRole(ctx, fmt.Sprintf("v%d", i), ""); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.AddRole(ctx, "r", ""); err != nil {
			t.Fatal(err)
		}

		var maxSeen atomic.Int64
		var sampleErr atomic.Value
		sample := func() {
			var n int64
			if err := az.db.NewRaw("SELECT count(*) FROM rolegate_audit").Scan(ctx, &n); err != nil {
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
		samples := 0
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
				time.Sleep(time.Millisecond)
			}
		}()
		for b := range batches {
			ops := make([]Operation, batch)
			for i := range ops {
				ops[i] = Operation{Op: "add_permission", Role: "r", Permission: fmt.Sprintf("p%d-%d", b, i)}
			}
			if _, err := w.Batch(ctx, ops); err != nil {
				t.Fatal(err)
			}
			sample()
		}
		close(stop)
		wg.Wait()
		if err := sampleErr.Load(); err != nil {
			t.Fatalf("counting the audit records: %v", err)
		}
		limit := int64(bound + bound/100 + batch)
		t.Logf("%d change records written; audit records at most %d in %d samples (bound %d + 1%% + one batch = %d)",
			batch*batches, maxSeen.Load(), samples, bound, limit)
		if maxSeen.Load() > limit {
			t.Errorf("the audit table reached %d records, over %d", maxSeen.Load(), limit)
		}
		created := 0
		for _, r := range auditOf(t, az, victim) {
			if r.Action == "add_role" && r.Outcome == "created" {
				created++
			}
		}
		if created != victimChanges {
			t.Errorf("the other client kept %d of its %d change records", created, victimChanges)
		}
	})
}
