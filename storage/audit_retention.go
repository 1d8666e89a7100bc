package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// PruneAuditBefore deletes up to AuditPruneBatch records older than
// cutoff, oldest first, and reports how many it deleted; call it again
// while it deletes a full batch.
func PruneAuditBefore(ctx context.Context, db bun.IDB, cutoff time.Time) (int64, error) {
	res, err := db.NewRaw(`DELETE FROM rolegate_audit WHERE id IN (
		SELECT id FROM rolegate_audit WHERE at < ? ORDER BY at, id LIMIT ?)`, cutoff.UTC(), AuditPruneBatch).Exec(ctx)
	if err != nil {
		return 0, Classify(err)
	}
	return res.RowsAffected()
}

// pruneAuditBeyond deletes up to AuditPruneBatch of the records beyond
// keep, fairly (see PlanAuditPrune: the clients holding the most lose
// their oldest, refusals first), and reports how many it deleted; call it
// again until it deletes none. It plans anew on every call; a retention
// run plans once (PlanAuditPrune) and calls Next instead.
func pruneAuditBeyond(ctx context.Context, db bun.IDB, keep int) (int64, error) {
	p, err := PlanAuditPrune(ctx, db, keep)
	if err != nil {
		return 0, err
	}
	return p.Next(ctx, db)
}
