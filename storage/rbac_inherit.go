package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// ancestorsCTE is the recursive part shared by the effective queries: r is
// the set of roles reached from the seed rows by following inheritance
// upwards (a role to the roles it inherits from). UNION, not UNION ALL, so
// the walk ends even on a cycle a store was somehow left with.
const ancestorsCTE = `r(role) AS (%s
	UNION SELECT p.parent FROM rolegate_role_parents p JOIN r ON p.role = r.role WHERE p.ns = ?)`

// AddInheritance makes role inherit every permission of parent;
// ErrRoleNotFound when either does not exist, ErrCycle when parent already
// inherits from role (or is role). Run it in a transaction: on PostgreSQL
// it takes a transaction-scoped lock per namespace first, so that two
// concurrent inheritances cannot each pass the cycle check and together
// make a cycle.
func AddInheritance(ctx context.Context, db bun.IDB, s Scope, role, parent string) (created bool, err error) {
	if IsPostgres(db) {
		if _, err := db.NewRaw("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))",
			"rolegate_role_parents:"+s.NS).Exec(ctx); err != nil {
			return false, Classify(err)
		}
	}
	for _, r := range []string{role, parent} {
		if err := requireRole(ctx, db, s, r); err != nil {
			return false, err
		}
	}
	cycle, err := exists(ctx, db, `WITH RECURSIVE `+fmt.Sprintf(ancestorsCTE, "SELECT CAST(? AS TEXT)")+`
		SELECT 1 FROM r WHERE role = ? LIMIT 1`, parent, s.NS, role)
	if err != nil {
		return false, err
	}
	if cycle {
		return false, ErrCycle
	}
	res, err := db.NewRaw(
		"INSERT INTO rolegate_role_parents (ns, role, parent) VALUES (?, ?, ?) ON CONFLICT (ns, role, parent) DO NOTHING",
		s.NS, role, parent).Exec(ctx)
	return affected(res, err)
}

// DeleteInheritance removes role's inheritance from parent.
func DeleteInheritance(ctx context.Context, db bun.IDB, s Scope, role, parent string) (deleted bool, err error) {
	res, err := db.NewRaw("DELETE FROM rolegate_role_parents WHERE ns = ? AND role = ? AND parent = ?",
		s.NS, role, parent).Exec(ctx)
	return affected(res, err)
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
	return names(ctx, db, s.Permissions, `WITH RECURSIVE `+fmt.Sprintf(ancestorsCTE, "SELECT CAST(? AS TEXT)")+`
		SELECT name FROM rolegate_permissions WHERE ns = ? AND role IN (SELECT role FROM r)`, role, s.NS, s.NS)
}

// hasEffectivePermission reports whether role holds the permission, its
// own or inherited.
func hasEffectivePermission(ctx context.Context, db bun.IDB, s Scope, role, name string) (bool, error) {
	return exists(ctx, db, `WITH RECURSIVE `+fmt.Sprintf(ancestorsCTE, "SELECT CAST(? AS TEXT)")+`
		SELECT 1 FROM rolegate_permissions WHERE ns = ? AND role IN (SELECT role FROM r) AND name IN (?) LIMIT 1`,
		role, s.NS, s.NS, bun.List(s.permForms(name)))
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
	err := db.NewRaw(`WITH RECURSIVE `+fmt.Sprintf(ancestorsCTE, "SELECT name FROM rolegate_roles WHERE ns = ? AND name IN (?)")+`
		SELECT p.role, p.parent FROM rolegate_role_parents p WHERE p.ns = ? AND p.role IN (SELECT role FROM r)`,
		s.NS, bun.List(roles), s.NS, s.NS).Scan(ctx, &out)
	return out, Classify(err)
}

// rolesGranting lists the roles granted the permission directly (not
// through inheritance).
func rolesGranting(ctx context.Context, db bun.IDB, s Scope, name string) ([]string, error) {
	var roles []string
	err := db.NewRaw("SELECT role FROM rolegate_permissions WHERE ns = ? AND name IN (?)",
		s.NS, bun.List(s.permForms(name))).Scan(ctx, &roles)
	if err != nil {
		return nil, Classify(err)
	}
	return sortedUnique(roles), nil
}
