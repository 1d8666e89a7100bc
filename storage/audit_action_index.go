package storage

import (
	"context"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261125170100", "audit: index by (client, action, id); index of refusals", auditActionIndexUp, auditActionIndexDown)
}

// auditRefusalPredicate picks the records of refused requests (their
// outcome is "refused: <reason>").
const auditRefusalPredicate = "outcome LIKE 'refused:%'"

// auditActionIndexUp adds the index GET /api/audit?action= reads
// (ListAudit with an action: WHERE client = ? AND action = ? ORDER BY id DESC
// LIMIT n). With only (client, id), an action the client has few or no
// records of walks all of them: any client (in open mode, anybody) could
// make each such request scan up to AUTH_AUDIT_MAX_RECORDS rows (60 ms a
// request for 1,000,000 rows on PostgreSQL here, 0.5 ms with the index).
//
// rolegate_audit_refusals was the partial index the retention found the
// oldest refusals by; the fair-share retention (audit_fairshare.go) drops
// it for indexes by client.
func auditActionIndexUp(ctx context.Context, db *bun.DB) error {
	for _, q := range []string{
		`CREATE INDEX IF NOT EXISTS rolegate_audit_by_client_action ON rolegate_audit (client, action, id)`,
		`CREATE INDEX IF NOT EXISTS rolegate_audit_refusals ON rolegate_audit (id) WHERE ` + auditRefusalPredicate,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

func auditActionIndexDown(ctx context.Context, db *bun.DB) error {
	for _, q := range []string{"DROP INDEX IF EXISTS rolegate_audit_by_client_action", "DROP INDEX IF EXISTS rolegate_audit_refusals"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
