package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// ancestorsCTE is the part shared by the effective queries: r is the set
// of roles reached from the seed rows (%s, a query of one column) by
// following inheritance upwards, read from the closure in one join rather
// than walked. Its parameters are the seed's, then the namespace. (CROSS
// JOIN makes SQLite read the seed first and the closure by its key.)
const ancestorsCTE = `r0(role) AS (%s),
	r(role) AS (SELECT role FROM r0
		UNION SELECT a.ancestor FROM r0 CROSS JOIN rolegate_role_ancestors a WHERE a.ns = ? AND a.role = r0.role)`

// AddInheritance makes role inherit every permission of parent;
// ErrRoleNotFound when either does not exist, ErrCycle when parent already
// inherits from role (or is role), ErrShapeLimit when role, or a role
// inheriting from it, would pass Scope.MaxInheritanceDepth or
// Scope.MaxRoleAncestors. Run it in a transaction: on PostgreSQL it takes
// a transaction-scoped lock per namespace first, so that two concurrent
// inheritances cannot each pass the checks and together make a cycle or
// pass a limit.
func AddInheritance(ctx context.Context, db bun.IDB, s Scope, role, parent string) (created bool, err error) {
	if err := lockInheritance(ctx, db, s); err != nil {
		return false, err
	}
	for _, r := range []string{role, parent} {
		if err := requireRole(ctx, db, s, r); err != nil {
			return false, err
		}
	}
	there, err := exists(ctx, db, "SELECT 1 FROM rolegate_role_parents WHERE ns = ? AND role = ? AND parent = ?",
		s.NS, role, parent)
	if err != nil || there {
		return false, err
	}
	cycle := role == parent
	if !cycle {
		cycle, err = exists(ctx, db, "SELECT 1 FROM rolegate_role_ancestors WHERE ns = ? AND role = ? AND ancestor = ?",
			s.NS, parent, role)
		if err != nil {
			return false, err
		}
	}
	if cycle {
		return false, ErrCycle
	}
	if err := checkShape(ctx, db, s, role, parent); err != nil {
		return false, err
	}
	res, err := db.NewRaw(
		"INSERT INTO rolegate_role_parents (ns, role, parent) VALUES (?, ?, ?) ON CONFLICT (ns, role, parent) DO NOTHING",
		s.NS, role, parent).Exec(ctx)
	if created, err = affected(res, err); !created || err != nil {
		return created, err
	}
	return true, linkAncestors(ctx, db, s, role, parent)
}

// DeleteInheritance removes role's inheritance from parent. Run it in a
// transaction: the closure of role and of the roles inheriting from it is
// rebuilt with it.
func DeleteInheritance(ctx context.Context, db bun.IDB, s Scope, role, parent string) (deleted bool, err error) {
	if err := lockInheritance(ctx, db, s); err != nil {
		return false, err
	}
	res, err := db.NewRaw("DELETE FROM rolegate_role_parents WHERE ns = ? AND role = ? AND parent = ?",
		s.NS, role, parent).Exec(ctx)
	if deleted, err = affected(res, err); !deleted || err != nil {
		return deleted, err
	}
	return true, unlinkAncestors(ctx, db, s, role)
}

// roleParents lists the roles role inherits from directly;
// ErrRoleNotFound when it does not exist.
func roleParents(ctx context.Context, db bun.IDB, s Scope, role string) ([]string, error) {
	if err := requireRole(ctx, db, s, role); err != nil {
		return nil, err
	}
	var out []string
	if err := db.NewRaw("SELECT parent FROM rolegate_role_parents WHERE ns = ? AND role = ?",
		s.NS, role).Scan(ctx, &out); err != nil {
		return nil, Classify(err)
	}
	return sortedUnique(out), nil
}

// roleEffectivePermissions lists the permissions role holds, its own and
// inherited; ErrRoleNotFound when it does not exist.
func roleEffectivePermissions(ctx context.Context, db bun.IDB, s Scope, role string) ([]string, error) {
	if err := requireRole(ctx, db, s, role); err != nil {
		return nil, err
	}
	return names(ctx, db, s.Permissions, `SELECT name FROM rolegate_permissions WHERE ns = ? AND role IN (
		SELECT CAST(? AS TEXT) UNION ALL SELECT ancestor FROM rolegate_role_ancestors WHERE ns = ? AND role = ?) AND `+s.held(""),
		s.NS, role, s.NS, role)
}

// hasEffectivePermission reports whether role holds the permission, its
// own or inherited.
func hasEffectivePermission(ctx context.Context, db bun.IDB, s Scope, role, name string) (bool, error) {
	return exists(ctx, db, `SELECT 1 FROM rolegate_permissions WHERE ns = ? AND name IN (?) AND role IN (
		SELECT CAST(? AS TEXT) UNION ALL SELECT ancestor FROM rolegate_role_ancestors WHERE ns = ? AND role = ?) AND `+s.held("")+` LIMIT 1`,
		s.NS, bun.List(s.permForms(name)), role, s.NS, role)
}

// Edge is one inheritance: Role inherits from Parent.
type Edge struct {
	Role   string `bun:"role"`
	Parent string `bun:"parent"`
}

// EdgesFrom lists the inheritances reachable upwards from roles: what
// explains how a user's roles reach a permission.
func EdgesFrom(ctx context.Context, db bun.IDB, s Scope, roles []string) ([]Edge, error) {
	if len(roles) == 0 {
		return nil, nil
	}
	var out []Edge
	err := db.NewRaw(`WITH `+fmt.Sprintf(ancestorsCTE, "SELECT name FROM rolegate_roles WHERE ns = ? AND name IN (?)")+`
		SELECT p.role, p.parent FROM rolegate_role_parents p WHERE p.ns = ? AND p.role IN (SELECT role FROM r)`,
		s.NS, bun.List(roles), s.NS, s.NS).Scan(ctx, &out)
	return out, Classify(err)
}

// rolesGranting lists the roles granted the permission directly (not
// through inheritance) by a grant held now.
func rolesGranting(ctx context.Context, db bun.IDB, s Scope, name string) ([]string, error) {
	var roles []string
	err := db.NewRaw("SELECT role FROM rolegate_permissions WHERE ns = ? AND name IN (?) AND "+s.held(""),
		s.NS, bun.List(s.permForms(name))).Scan(ctx, &roles)
	if err != nil {
		return nil, Classify(err)
	}
	return sortedUnique(roles), nil
}
