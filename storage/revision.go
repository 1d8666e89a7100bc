package storage

import (
	"context"

	"github.com/uptrace/bun"
)

// bumpRevision advances the namespace's revision and, on PostgreSQL,
// queues a NOTIFY that is delivered when the transaction commits. Call it
// in the same transaction as the change it stands for.
func bumpRevision(ctx context.Context, db bun.IDB, ns string) (int64, error) {
	var rev int64
	err := db.NewRaw(`INSERT INTO rolegate_revisions (ns, revision) VALUES (?, 1)
		ON CONFLICT (ns) DO UPDATE SET revision = rolegate_revisions.revision + 1
		RETURNING revision`, ns).Scan(ctx, &rev)
	if err != nil {
		return 0, Classify(err)
	}
	if IsPostgres(db) {
		// The payload is the namespace digest only: no name, no key.
		if _, err := db.NewRaw("SELECT pg_notify(?, ?)", ChangesChannel, ns).Exec(ctx); err != nil {
			return 0, Classify(err)
		}
	}
	return rev, nil
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
