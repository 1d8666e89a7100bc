package storage

import (
	"context"
	"database/sql"

	"github.com/uptrace/bun"
)

// AddMembership makes the user a member of the role: globally when scope
// is "", else in that scope only; without time bounds (a membership that
// exists loses its own, see PutMembership). ErrRoleNotFound when the role
// does not exist; created is false when it already was.
func AddMembership(ctx context.Context, db bun.IDB, s Scope, scope, user, role string) (created bool, err error) {
	p, err := PutMembership(ctx, db, s, scope, user, role, TimeBounds{})
	return p.Created, err
}

// DeleteMembership removes the user's membership of the role: the global
// one when scope is "", else the one in scope (a global membership stays).
func DeleteMembership(ctx context.Context, db bun.IDB, s Scope, scope, user, role string) (deleted bool, err error) {
	forms := bun.List(s.userForms(user))
	var res sql.Result
	if scope == "" {
		res, err = db.NewRaw("DELETE FROM rolegate_memberships WHERE ns = ? AND role = ? AND user_name IN (?)",
			s.NS, role, forms).Exec(ctx)
	} else {
		res, err = db.NewRaw("DELETE FROM rolegate_scoped_memberships WHERE ns = ? AND scope = ? AND role = ? AND user_name IN (?)",
			s.NS, scope, role, forms).Exec(ctx)
	}
	return affected(res, err)
}

// HasMembership reports whether the user is a member of the role globally
// or, when scope is not "", in scope, by a membership held now.
func HasMembership(ctx context.Context, db bun.IDB, s Scope, scope, user, role string) (bool, error) {
	forms := bun.List(s.userForms(user))
	if scope == "" {
		return exists(ctx, db, "SELECT 1 FROM rolegate_memberships WHERE ns = ? AND role = ? AND user_name IN (?) AND "+s.held(""),
			s.NS, role, forms)
	}
	return exists(ctx, db, `SELECT 1 WHERE EXISTS (SELECT 1 FROM rolegate_memberships WHERE ns = ? AND role = ? AND user_name IN (?) AND `+s.held("")+`)
		OR EXISTS (SELECT 1 FROM rolegate_scoped_memberships WHERE ns = ? AND scope = ? AND role = ? AND user_name IN (?) AND `+s.held("")+`)`,
		s.NS, role, forms, s.NS, scope, role, forms)
}

// userRoles lists the roles the user is a member of now.
func userRoles(ctx context.Context, db bun.IDB, s Scope, user string) ([]string, error) {
	var roles []string
	err := db.NewRaw("SELECT role FROM rolegate_memberships WHERE ns = ? AND user_name IN (?) AND "+s.held(""),
		s.NS, bun.List(s.userForms(user))).Scan(ctx, &roles)
	if err != nil {
		return nil, Classify(err)
	}
	return sortedUnique(roles), nil
}

// roleMembers lists a role's members now; ErrRoleNotFound when the role
// does not exist.
func roleMembers(ctx context.Context, db bun.IDB, s Scope, role string) ([]string, error) {
	if err := requireRole(ctx, db, s, role); err != nil {
		return nil, err
	}
	return names(ctx, db, s.Users, "SELECT user_name FROM rolegate_memberships WHERE ns = ? AND role = ? AND "+s.held(""), s.NS, role)
}
