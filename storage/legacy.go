package storage

import (
	"context"

	"github.com/uptrace/bun"
)

// HasLegacyNames reports whether any permission or member's user name is
// stored in plain form, as rows written before encryption was turned on
// are. prefix is the cipher's version prefix. While there are none, a
// process with encryption on can skip looking for plain forms.
func HasLegacyNames(ctx context.Context, db bun.IDB, prefix string) (bool, error) {
	like := prefix + "%"
	return exists(ctx, db, `SELECT 1 WHERE EXISTS (SELECT 1 FROM rolegate_permissions WHERE name NOT LIKE ?)
		OR EXISTS (SELECT 1 FROM rolegate_memberships WHERE user_name NOT LIKE ?)`, like, like)
}
