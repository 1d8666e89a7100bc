package storage

import (
	"context"

	"github.com/uptrace/bun"
)

// eachRoleChild calls fn with the roles that inherit from role directly,
// window by window, sorted; ErrRoleNotFound (before any call) when the
// role does not exist. Deleting role removes these links too.
func eachRoleChild(ctx context.Context, db bun.IDB, s Scope, role string, w ListWindow, fn func([]string) error) error {
	if err := requireRole(ctx, db, s, role); err != nil {
		return err
	}
	return eachPlain(ctx, db, w, "role", "rolegate_role_parents WHERE ns = ? AND parent = ?", []any{s.NS, role}, fn)
}
