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
// roles, grants, memberships global and scoped, inheritance links.
const rowCount = `(SELECT count(*) FROM rolegate_roles WHERE ns = ?)
	+ (SELECT count(*) FROM rolegate_permissions WHERE ns = ?)
	+ (SELECT count(*) FROM rolegate_memberships WHERE ns = ?)
	+ (SELECT count(*) FROM rolegate_scoped_memberships WHERE ns = ?)
	+ (SELECT count(*) FROM rolegate_role_parents WHERE ns = ?)`

// RecountRows counts the rows a namespace holds (roles, grants,
// memberships global and scoped, inheritance links) and sets its row bound
// to that count, in one statement. Call it in a write's transaction after
// RecordChange, whose revision bump holds the row that orders the
// namespace's writers (so the count includes every earlier writer's rows,
// on PostgreSQL too) and which the bound is kept on.
func RecountRows(ctx context.Context, db bun.IDB, ns string) (int64, error) {
	var n int64
	err := db.NewRaw("UPDATE rolegate_revisions SET row_bound = "+rowCount+" WHERE ns = ? RETURNING row_bound",
		ns, ns, ns, ns, ns, ns).Scan(ctx, &n)
	return n, Classify(err)
}

// RecountRowsAndNamespaces is RecountRows that also counts the namespaces
// that were ever written (each has a revision row), for the transaction
// of a namespace's first write: on PostgreSQL it first takes a transaction
// advisory lock, so that such writes count one after the other and a
// limit holds exactly across replicas (SQLite has one writer at a time
// anyway). Two statements on PostgreSQL (the lock, then both counts), one
// on SQLite.
func RecountRowsAndNamespaces(ctx context.Context, db bun.IDB, ns string) (rows int64, namespaces int, err error) {
	if err := lockNamespaces(ctx, db); err != nil {
		return 0, 0, err
	}
	err = db.NewRaw("UPDATE rolegate_revisions SET row_bound = "+rowCount+" WHERE ns = ? RETURNING row_bound, (SELECT count(*) FROM rolegate_revisions)",
		ns, ns, ns, ns, ns, ns).Scan(ctx, &rows, &namespaces)
	return rows, namespaces, Classify(err)
}

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
