package storage

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"
)

// Revision returns the namespace's current revision (0 when it was never
// written): one read of rolegate_revisions by its primary key.
func Revision(ctx context.Context, db bun.IDB, ns string) (int64, error) {
	var rev int64
	err := db.NewRaw("SELECT revision FROM rolegate_revisions WHERE ns = ?", ns).Scan(ctx, &rev)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return rev, Classify(err)
}
