package storage

import (
	"context"

	"github.com/uptrace/bun"
)

// RoleGrants lists the permissions granted to the role itself (plain
// names): what the decision cache keeps per role. A role that does not
// exist has none; unlike RolePermissions, this is one query.
func RoleGrants(ctx context.Context, db bun.IDB, s Scope, role string) ([]string, error) {
	return names(ctx, db, s, "SELECT name FROM rolegate_permissions WHERE ns = ? AND role = ?", s.NS, role)
}
