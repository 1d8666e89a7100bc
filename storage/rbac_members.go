package storage

import (
	"context"

	"github.com/uptrace/bun"
)

// AddMembership makes the user a member of the role; ErrRoleNotFound when
// the role does not exist; created is false when it already was.
func AddMembership(ctx context.Context, db bun.IDB, s Scope, user, role string) (created bool, err error) {
	if err := requireRole(ctx, db, s, role); err != nil {
		return false, err
	}
	res, err := db.NewRaw(
		"INSERT INTO rolegate_memberships (ns, user_name, role) VALUES (?, ?, ?) ON CONFLICT (ns, user_name, role) DO NOTHING",
		s.NS, s.storedUser(user), role).Exec(ctx)
	return affected(res, err)
}

// DeleteMembership removes the user from the role.
func DeleteMembership(ctx context.Context, db bun.IDB, s Scope, user, role string) (deleted bool, err error) {
	res, err := db.NewRaw("DELETE FROM rolegate_memberships WHERE ns = ? AND role = ? AND user_name IN (?)",
		s.NS, role, bun.List(s.userForms(user))).Exec(ctx)
	return affected(res, err)
}

// HasMembership reports whether the user is a member of the role.
func HasMembership(ctx context.Context, db bun.IDB, s Scope, user, role string) (bool, error) {
	return exists(ctx, db, "SELECT 1 FROM rolegate_memberships WHERE ns = ? AND role = ? AND user_name IN (?)",
		s.NS, role, bun.List(s.userForms(user)))
}

// UserRoles lists the roles the user is a member of.
func UserRoles(ctx context.Context, db bun.IDB, s Scope, user string) ([]string, error) {
	var roles []string
	err := db.NewRaw("SELECT role FROM rolegate_memberships WHERE ns = ? AND user_name IN (?)",
		s.NS, bun.List(s.userForms(user))).Scan(ctx, &roles)
	if err != nil {
		return nil, Classify(err)
	}
	return sortedUnique(roles), nil
}

// RoleMembers lists a role's members; ErrRoleNotFound when the role does
// not exist.
func RoleMembers(ctx context.Context, db bun.IDB, s Scope, role string) ([]string, error) {
	if err := requireRole(ctx, db, s, role); err != nil {
		return nil, err
	}
	return names(ctx, db, s.Users, "SELECT user_name FROM rolegate_memberships WHERE ns = ? AND role = ?", s.NS, role)
}
