package storage

import (
	"context"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261123110100", "scoped memberships: index in (scope, user, role) order", scopedIndexUp, scopedIndexDown)
}

// scopedIndexUp adds the index GET /api/scoped_memberships pages through
// (EachScopedMembership: WHERE ns = ? AND (scope, user_name, role) > (...)
// ORDER BY scope, user_name, role). Without it every window sorts the
// namespace's rows: 100,000 scoped memberships took 14 s to list, 1.3 s
// with it on SQLite. On PostgreSQL the columns are collated "C", the byte
// order the query asks for (byteOrder), so the index serves whatever the
// database's own collation is.
func scopedIndexUp(ctx context.Context, db *bun.DB) error {
	q := `CREATE INDEX IF NOT EXISTS rolegate_scoped_memberships_by_scope ON rolegate_scoped_memberships (ns, scope, user_name, role)`
	if IsPostgres(db) {
		q = `CREATE INDEX IF NOT EXISTS rolegate_scoped_memberships_by_scope ON rolegate_scoped_memberships
			(ns, scope COLLATE "C", user_name COLLATE "C", role COLLATE "C")`
	}
	_, err := db.ExecContext(ctx, q)
	return err
}

func scopedIndexDown(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, "DROP INDEX IF EXISTS rolegate_scoped_memberships_by_scope")
	return err
}
