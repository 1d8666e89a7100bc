package storage

import (
	"context"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261123090200", "row bounds per namespace", quotaUp, quotaDown)
}

// rolegate_row_bounds kept, per namespace, an upper bound of the rows it
// holds (roles, grants, memberships): the exact count when it was last
// taken, plus one for each add since. Deletes leave it high. Counting
// exactly is a scan of the namespace (several milliseconds at 10,000
// rows), so a write counts only when the bound passes the limit. The
// bound now lives on the revision row (see rowBoundUp).
func quotaUp(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS rolegate_row_bounds (
		ns TEXT NOT NULL PRIMARY KEY,
		bound BIGINT NOT NULL
	)`)
	return err
}

func quotaDown(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, "DROP TABLE IF EXISTS rolegate_row_bounds")
	return err
}

// rowCount counts the rows of a namespace (argument 1, five times):
// roles, grants, memberships global and scoped, inheritance links (see
// Recount).
const rowCount = `(SELECT count(*) FROM rolegate_roles WHERE ns = ?)
	+ (SELECT count(*) FROM rolegate_permissions WHERE ns = ?)
	+ (SELECT count(*) FROM rolegate_memberships WHERE ns = ?)
	+ (SELECT count(*) FROM rolegate_scoped_memberships WHERE ns = ?)
	+ (SELECT count(*) FROM rolegate_role_parents WHERE ns = ?)`

// namespacesLockKey names the transaction advisory lock that orders the
// first writes of new namespaces on PostgreSQL, one per schema.
const namespacesLockKey = "hashtext(current_schema() || '.rolegate_namespaces')"

// lockNamespaces takes, on PostgreSQL, the transaction advisory lock that
// orders the first writes of new namespaces. The counts that follow it run
// in a statement of their own, so that its snapshot is taken after the
// lock was granted.
func lockNamespaces(ctx context.Context, db bun.IDB) error {
	if !IsPostgres(db) {
		return nil
	}
	_, err := db.NewRaw("SELECT pg_advisory_xact_lock(" + namespacesLockKey + ")").Exec(ctx)
	return Classify(err)
}
