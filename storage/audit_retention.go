package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// AuditPruneBatch is how many audit records one statement of PruneAudit
// deletes: small enough that a SQLite writer or a PostgreSQL vacuum never
// waits long behind it.
const AuditPruneBatch = 5000

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

// PruneAuditBeyond deletes up to AuditPruneBatch of the oldest records
// beyond the newest keep, and reports how many it deleted; call it again
// while it deletes a full batch.
func PruneAuditBeyond(ctx context.Context, db bun.IDB, keep int) (int64, error) {
	var cutoff []int64
	if err := db.NewRaw("SELECT id FROM rolegate_audit ORDER BY id DESC LIMIT 1 OFFSET ?", keep).Scan(ctx, &cutoff); err != nil {
		return 0, Classify(err)
	}
	if len(cutoff) == 0 {
		return 0, nil
	}
	res, err := db.NewRaw(`DELETE FROM rolegate_audit WHERE id IN (
		SELECT id FROM rolegate_audit WHERE id <= ? ORDER BY id LIMIT ?)`, cutoff[0], AuditPruneBatch).Exec(ctx)
	if err != nil {
		return 0, Classify(err)
	}
	return res.RowsAffected()
}
