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
		OR EXISTS (SELECT 1 FROM rolegate_scoped_memberships WHERE user_name LIKE ?)
		OR EXISTS (SELECT 1 FROM rolegate_roles WHERE description LIKE ?)
		OR EXISTS (SELECT 1 FROM rolegate_changes WHERE user_name LIKE ?)`, like, like, like, like, like)
}

// HasPlainNames reports whether the namespace holds any permission name or
// member's user name in plain form (without prefix, the cipher's version
// prefix): rows written before encryption was turned on, or by a process
// running without it. It reads every name of the namespace when there is
// none; rolegate asks once per client and process.
func HasPlainNames(ctx context.Context, db bun.IDB, ns, prefix string) (bool, error) {
	n := len(prefix)
	return exists(ctx, db, `SELECT 1 WHERE EXISTS (SELECT 1 FROM rolegate_permissions WHERE ns = ? AND substr(name, 1, ?) <> ?)
		OR EXISTS (SELECT 1 FROM rolegate_memberships WHERE ns = ? AND substr(user_name, 1, ?) <> ?)
		OR EXISTS (SELECT 1 FROM rolegate_scoped_memberships WHERE ns = ? AND substr(user_name, 1, ?) <> ?)`,
		ns, n, prefix, ns, n, prefix, ns, n, prefix)
}
