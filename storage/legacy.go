package storage

import (
	"context"

	"github.com/uptrace/bun"
)

// HasEncryptedValues reports whether anything in the store is stored
// encrypted: a permission name, a member's user name, a role description
// or a change log entry carrying prefix, the cipher's version prefix
// (which no valid name can start with).
func HasEncryptedValues(ctx context.Context, db bun.IDB, prefix string) (bool, error) {
	like := prefix + "%"
	return exists(ctx, db, `SELECT 1 WHERE EXISTS (SELECT 1 FROM rolegate_permissions WHERE name LIKE ?)
		OR EXISTS (SELECT 1 FROM rolegate_memberships WHERE user_name LIKE ?)
		OR EXISTS (SELECT 1 FROM rolegate_roles WHERE description LIKE ?)
		OR EXISTS (SELECT 1 FROM rolegate_changes WHERE user_name LIKE ?)`, like, like, like, like)
}
