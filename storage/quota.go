package storage

import (
	"context"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261123090200", "row bounds per namespace", quotaUp, quotaDown)
}

// rolegate_row_bounds keeps, per namespace, an upper bound of the rows it
// holds (roles, grants, memberships): the exact count when it was last
// taken, plus one for each add since. Deletes leave it high. Counting
// exactly is a scan of the namespace (several milliseconds at 10,000
// rows), so a write counts only when the bound passes the limit.
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

// AddRowBound raises the namespace's row bound by one for a write that
// added a row, and returns it. A namespace without a bound yet (new, or
// from before this table) gets its exact count. Call it in the write's
// transaction after RecordChange: the namespace's revision row, locked
// by then, orders its writers, so the bound and the count include every
// earlier writer's rows, on PostgreSQL too.
func AddRowBound(ctx context.Context, db bun.IDB, ns string) (int64, error) {
	var bound []int64
	if err := db.NewRaw("UPDATE rolegate_row_bounds SET bound = bound + 1 WHERE ns = ? RETURNING bound", ns).Scan(ctx, &bound); err != nil {
		return 0, Classify(err)
	}
	if len(bound) == 1 {
		return bound[0], nil
	}
	return RecountRows(ctx, db, ns)
}

// RecountRows counts the rows a namespace holds (roles, grants,
// memberships global and scoped, inheritance links) and sets its row bound
// to that count. In a write's transaction, call it after RecordChange (see
// AddRowBound).
func RecountRows(ctx context.Context, db bun.IDB, ns string) (int64, error) {
	var n int64
	err := db.NewRaw(`SELECT (SELECT count(*) FROM rolegate_roles WHERE ns = ?)
		+ (SELECT count(*) FROM rolegate_permissions WHERE ns = ?)
		+ (SELECT count(*) FROM rolegate_memberships WHERE ns = ?)
		+ (SELECT count(*) FROM rolegate_scoped_memberships WHERE ns = ?)
		+ (SELECT count(*) FROM rolegate_role_parents WHERE ns = ?)`, ns, ns, ns, ns, ns).Scan(ctx, &n)
	if err != nil {
		return 0, Classify(err)
	}
	_, err = db.NewRaw(`INSERT INTO rolegate_row_bounds (ns, bound) VALUES (?, ?)
		ON CONFLICT (ns) DO UPDATE SET bound = excluded.bound`, ns, n).Exec(ctx)
	return n, Classify(err)
}

// namespacesLockKey names the transaction advisory lock that orders the
// first writes of new namespaces on PostgreSQL, one per schema.
const namespacesLockKey = "hashtext(current_schema() || '.rolegate_namespaces')"

// CountNamespaces counts the namespaces that were ever written (each has a
// revision row). Call it in the transaction of a namespace's first write,
// after RecordChange: on PostgreSQL it first takes a transaction advisory
// lock, so that such writes count one after the other and a limit holds
// exactly across replicas; SQLite has one writer at a time anyway.
func CountNamespaces(ctx context.Context, db bun.IDB) (int, error) {
	if IsPostgres(db) {
		if _, err := db.NewRaw("SELECT pg_advisory_xact_lock(" + namespacesLockKey + ")").Exec(ctx); err != nil {
			return 0, Classify(err)
		}
	}
	var n int
	err := db.NewRaw("SELECT count(*) FROM rolegate_revisions").Scan(ctx, &n)
	return n, Classify(err)
}
