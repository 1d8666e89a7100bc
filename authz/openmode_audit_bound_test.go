package authz

import (
	"context"
	"fmt"
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

		audit := sampleAudit(az.db, time.Millisecond)
		for b := range batches {
			ops := make([]Operation, batch)
			for i := range ops {
				ops[i] = Operation{Op: "add_permission", Role: "r", Permission: fmt.Sprintf("p%d-%d", b, i)}
			}
			if _, err := w.Batch(ctx, ops); err != nil {
				t.Fatal(err)
			}
			audit.sample()
		}
		most, samples := audit.done(t)
		limit := int64(bound + bound/100 + batch)
		t.Logf("%d change records written; audit records at most %d in %d samples (bound %d + 1%% + one batch = %d)",
			batch*batches, most, samples, bound, limit)
		if most > limit {
			t.Errorf("the audit table reached %d records, over %d", most, limit)
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
