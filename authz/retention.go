package authz

import (
	"context"
	"time"

	"github.com/rolegate/rolegate/storage"
)

// defaultAuditPruneEvery is how often the audit retention runs.
const defaultAuditPruneEvery = 10 * time.Minute

// startAuditRetention deletes, in the background, audit records older
// than AuditRetention and, beyond AuditMaxRecords, the oldest of the
// clients holding the most: once at
// Open, then every auditPruneEvery, until Close. Every replica does it;
// the deletes are idempotent, so they only share the work.
func (az *Authz) startAuditRetention() {
	az.goBackground(func(ctx context.Context) {
		t := time.NewTicker(az.cfg.auditPruneEvery)
		defer t.Stop()
		for {
			az.pruneAudit(ctx)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	})
}

// pruneAudit runs both rules, one batch per statement, so that writers
// (one at a time on SQLite) never wait long behind it.
func (az *Authz) pruneAudit(ctx context.Context) {
	var deleted int64
	warn := func(err error) {
		if ctx.Err() == nil {
			az.log.Warn("audit retention: records not deleted", "error", err)
		}
	}
	batches := func(prune func(context.Context) (int64, error), more func(n int64) bool) {
		for ctx.Err() == nil {
			n, err := az.pruneBatch(ctx, prune)
			deleted += n
			if err != nil {
				warn(err)
				return
			}
			if !more(n) {
				return
			}
		}
	}
	batches(func(ctx context.Context) (int64, error) {
		return storage.PruneAuditBefore(ctx, az.db, time.Now().Add(-az.cfg.AuditRetention))
	}, func(n int64) bool { return n == storage.AuditPruneBatch })
	// Over the count bound, the clients holding the most records lose
	// their oldest (see storage.PlanAuditPrune), so that one stranger
	// writing add/delete pairs cannot push another client's records out.
	// The plan is read once (counts through indexes), then carried out a
	// batch per statement.
	if ctx.Err() != nil {
		return
	}
	plan, err := storage.PlanAuditPrune(ctx, az.db, az.cfg.AuditMaxRecords)
	if err != nil {
		warn(err)
	} else {
		batches(func(ctx context.Context) (int64, error) { return plan.Next(ctx, az.db) },
			func(int64) bool { return !plan.Done() })
	}
	if deleted > 0 {
		az.log.Debug("audit retention", "deleted", deleted)
	}
}

// pruneBatch runs one delete, queued with this process's other writers on
// SQLite.
func (az *Authz) pruneBatch(ctx context.Context, prune func(context.Context) (int64, error)) (int64, error) {
	if az.sqliteWriters != nil {
		az.sqliteWriters.Lock()
		defer az.sqliteWriters.Unlock()
	}
	return prune(ctx)
}
