package storage

import (
	"context"

	"github.com/uptrace/bun"
)

// RoleCounts is how much hangs on one role: what deleting it removes.
type RoleCounts struct {
	Permissions   int `bun:"permissions" json:"permissions"`
	Members       int `bun:"members" json:"members"`
	ScopedMembers int `bun:"scoped_members" json:"scoped_members"`
	Parents       int `bun:"parents" json:"parents"`
	Children      int `bun:"children" json:"children"`
}

// CountRole counts the role's direct grants, global and scoped
// memberships, and inheritance links either way, in one statement over
// the (ns, role) and (ns, parent) indexes.
func CountRole(ctx context.Context, db bun.IDB, s Scope, role string) (RoleCounts, error) {
	var c RoleCounts
	err := db.NewRaw(`SELECT
		(SELECT COUNT(*) FROM rolegate_permissions WHERE ns = ? AND role = ?) AS permissions,
		(SELECT COUNT(*) FROM rolegate_memberships WHERE ns = ? AND role = ?) AS members,
		(SELECT COUNT(*) FROM rolegate_scoped_memberships WHERE ns = ? AND role = ?) AS scoped_members,
		(SELECT COUNT(*) FROM rolegate_role_parents WHERE ns = ? AND role = ?) AS parents,
		(SELECT COUNT(*) FROM rolegate_role_parents WHERE ns = ? AND parent = ?) AS children`,
		s.NS, role, s.NS, role, s.NS, role, s.NS, role, s.NS, role).Scan(ctx, &c)
	return c, Classify(err)
}
