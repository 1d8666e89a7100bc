package storage

import (
	"context"

	"github.com/uptrace/bun"
)

// SetRoleDescription changes a role's description; ErrRoleNotFound when
// the role does not exist; changed is false when it already read so.
// AddRole leaves an existing role's description alone, so policy files
// need this to bring descriptions in line.
func SetRoleDescription(ctx context.Context, db bun.IDB, s Scope, role, description string) (changed bool, err error) {
	cur, err := GetRole(ctx, db, s, role)
	if err != nil {
		return false, err
	}
	if cur.Description == description {
		return false, nil
	}
	res, err := db.NewRaw("UPDATE rolegate_roles SET description = ? WHERE ns = ? AND name = ?",
		s.storedDescription(description), s.NS, role).Exec(ctx)
	return affected(res, err)
}
