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

// PruneAuditBeyond deletes up to AuditPruneBatch of the records beyond
// the newest keep, and reports how many it deleted; call it again while it
// deletes a full batch.
//
// Refusals go first, oldest first; changes go, oldest first, only when no
// refusal is left to delete. Anybody can send requests that are refused
// (within AUTH_AUDIT_REFUSALS_PER_SECOND: 50 a second for everybody
// without a key, a million in under six hours), so with the newest keep
// of any kind a stranger's refusals would push every change out of the
// log.
func PruneAuditBeyond(ctx context.Context, db bun.IDB, keep int) (int64, error) {
	var total int64
	if err := db.NewRaw("SELECT COUNT(*) FROM rolegate_audit").Scan(ctx, &total); err != nil {
		return 0, Classify(err)
	}
	n := min(total-int64(keep), AuditPruneBatch)
	if n <= 0 {
		return 0, nil
	}
	var deleted int64
	for _, which := range []string{
		// The same predicate as the partial index rolegate_audit_refusals.
		"WHERE " + auditRefusalPredicate,
		"",
	} {
		res, err := db.NewRaw(`DELETE FROM rolegate_audit WHERE id IN (
			SELECT id FROM rolegate_audit `+which+` ORDER BY id LIMIT ?)`, n-deleted).Exec(ctx)
		if err != nil {
			return deleted, Classify(err)
		}
		d, err := res.RowsAffected()
		if err != nil {
			return deleted, err
		}
		if deleted += d; deleted >= n {
			break
		}
	}
	return deleted, nil
}
