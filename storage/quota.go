package storage

import (
	"context"

	"github.com/uptrace/bun"
)

// CountNamespaceRows counts the rows a namespace holds: roles, grants and
// memberships. Call it in a write's transaction after the namespace's
// revision row was bumped (RecordChange): that row lock orders the
// namespace's writers, so the count includes every earlier writer's rows,
// on PostgreSQL too.
func CountNamespaceRows(ctx context.Context, db bun.IDB, ns string) (int, error) {
	var n int
	err := db.NewRaw(`SELECT (SELECT count(*) FROM rolegate_roles WHERE ns = ?)
		+ (SELECT count(*) FROM rolegate_permissions WHERE ns = ?)
		+ (SELECT count(*) FROM rolegate_memberships WHERE ns = ?)`, ns, ns, ns).Scan(ctx, &n)
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
