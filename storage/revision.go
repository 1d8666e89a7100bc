package storage

import (
	"context"
	"database/sql"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261125214500", "row bounds kept on the revision row", rowBoundUp, rowBoundDown)
}

// row_bound is an upper bound of the rows the namespace holds (roles,
// grants, memberships global and scoped, inheritance links): the exact
// count when it was last taken (Recount), plus the rows each change
// since said it added (Change.Rows). Deletes leave it high. NULL is
// unknown: a namespace whose first write this was, or one from before the
// column whose count was never taken. Keeping it on the revision row makes
// its upkeep part of the revision bump every write makes anyway, and the
// bump's row lock orders it. It replaces rolegate_row_bounds, whose bounds
// it takes over; that table is left for replicas of the previous version
// during a rolling upgrade, and no longer read.
func rowBoundUp(ctx context.Context, db *bun.DB) error {
	for _, q := range []string{
		"ALTER TABLE rolegate_revisions ADD COLUMN row_bound BIGINT",
		`UPDATE rolegate_revisions SET row_bound =
			(SELECT bound FROM rolegate_row_bounds b WHERE b.ns = rolegate_revisions.ns)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// rowBoundDown forgets the bounds of rolegate_row_bounds too, which went
// stale meanwhile: the previous version recounts a namespace without one.
func rowBoundDown(ctx context.Context, db *bun.DB) error {
	for _, q := range []string{
		"DELETE FROM rolegate_row_bounds",
		"ALTER TABLE rolegate_revisions DROP COLUMN row_bound",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// revisionUpsert advances a namespace's revision (argument 1: the
// namespace) and raises its row bound by argument 2 and its byte bound by
// argument 3, returning all three.
const revisionUpsert = `INSERT INTO rolegate_revisions (ns, revision) VALUES (?, 1)
	ON CONFLICT (ns) DO UPDATE SET revision = rolegate_revisions.revision + 1,
		row_bound = rolegate_revisions.row_bound + ?, byte_bound = rolegate_revisions.byte_bound + ?
	RETURNING revision, row_bound, byte_bound`

// bumpRevision advances the namespace's revision, raising its bounds by
// what ch says it added, and, on PostgreSQL, queues a NOTIFY that is
// delivered when the transaction commits. Call it in the same transaction
// as the change it stands for.
func bumpRevision(ctx context.Context, db bun.IDB, ns string, ch Change) (int64, Bounds, error) {
	var rev int64
	var rows, bytes sql.NullInt64
	if err := db.NewRaw(revisionUpsert, ns, ch.Rows, ch.Bytes).Scan(ctx, &rev, &rows, &bytes); err != nil {
		return 0, Bounds{}, Classify(err)
	}
	if IsPostgres(db) {
		// The payload is the namespace digest only: no name, no key.
		if _, err := db.NewRaw("SELECT pg_notify(?, ?)", ChangesChannel, ns).Exec(ctx); err != nil {
			return 0, Bounds{}, Classify(err)
		}
	}
	return rev, Bounds{Rows: boundOf(rows), Bytes: boundOf(bytes)}, nil
}

// Revisions returns the current revision of each namespace asked for; a
// namespace never written has revision 0 and is left out of the map.
func Revisions(ctx context.Context, db bun.IDB, nss []string) (map[string]int64, error) {
	out := make(map[string]int64, len(nss))
	if len(nss) == 0 {
		return out, nil
	}
	var rows []struct {
		NS       string `bun:"ns"`
		Revision int64  `bun:"revision"`
	}
	if err := db.NewRaw("SELECT ns, revision FROM rolegate_revisions WHERE ns IN (?)", bun.List(nss)).Scan(ctx, &rows); err != nil {
		return nil, Classify(err)
	}
	for _, r := range rows {
		out[r.NS] = r.Revision
	}
	return out, nil
}
