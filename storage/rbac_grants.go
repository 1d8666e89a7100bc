package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/uptrace/bun"
)

// AddPermission grants a permission to a role, without time bounds (a
// grant that exists loses its own, see PutPermission); ErrRoleNotFound
// when the role does not exist; created is false when it was already
// granted.
func AddPermission(ctx context.Context, db bun.IDB, s Scope, role, name string) (created bool, err error) {
	p, err := PutPermission(ctx, db, s, role, name, TimeBounds{})
	return p.Created, err
}

// DeletePermission revokes a permission from a role.
func DeletePermission(ctx context.Context, db bun.IDB, s Scope, role, name string) (deleted bool, err error) {
	res, err := db.NewRaw("DELETE FROM rolegate_permissions WHERE ns = ? AND role = ? AND name IN (?)",
		s.NS, role, bun.List(s.permForms(name))).Exec(ctx)
	return affected(res, err)
}

// HasPermission reports whether the role is granted the permission or,
// when effective is set, holds it granted or inherited; a grant counts
// while it is held (see TimeBounds).
func HasPermission(ctx context.Context, db bun.IDB, s Scope, role, name string, effective bool) (bool, error) {
	if effective {
		return hasEffectivePermission(ctx, db, s, role, name)
	}
	return exists(ctx, db, "SELECT 1 FROM rolegate_permissions WHERE ns = ? AND role = ? AND name IN (?) AND "+s.held(""),
		s.NS, role, bun.List(s.permForms(name)))
}

// rolePermissions lists a role's permissions held now; ErrRoleNotFound
// when the role does not exist.
func rolePermissions(ctx context.Context, db bun.IDB, s Scope, role string) ([]string, error) {
	if err := requireRole(ctx, db, s, role); err != nil {
		return nil, err
	}
	return names(ctx, db, s.Permissions, "SELECT name FROM rolegate_permissions WHERE ns = ? AND role = ? AND "+s.held(""), s.NS, role)
}

// descendantsCTE is the set d of roles holding a permission: those granted
// it (d0, by a grant held now) and every role inheriting from one of them,
// read from the closure in one join. Its parameters: the namespace, the
// permission's stored forms, the namespace.
func (s Scope) descendantsCTE() string {
	return `d0(role) AS (SELECT role FROM rolegate_permissions WHERE ns = ? AND name IN (?) AND ` + s.held("") + `),
	d(role) AS (SELECT role FROM d0
		UNION SELECT a.role FROM d0 CROSS JOIN rolegate_role_ancestors a WHERE a.ns = ? AND a.ancestor = d0.role)`
}

// whichRolesCan lists the roles that hold the permission, granted or
// inherited.
func whichRolesCan(ctx context.Context, db bun.IDB, s Scope, name string) ([]string, error) {
	var roles []string
	err := db.NewRaw("WITH "+s.descendantsCTE()+" SELECT role FROM d",
		s.NS, bun.List(s.permForms(name)), s.NS).Scan(ctx, &roles)
	if err != nil {
		return nil, Classify(err)
	}
	return sortedUnique(roles), nil
}

// whichUsersCan lists the users that hold the permission through any of
// their global memberships held now (the role granted it, or inheriting
// it).
func whichUsersCan(ctx context.Context, db bun.IDB, s Scope, name string) ([]string, error) {
	return names(ctx, db, s.Users, "WITH "+s.descendantsCTE()+`
		SELECT user_name FROM rolegate_memberships WHERE ns = ? AND role IN (SELECT role FROM d) AND `+s.held(""),
		s.NS, bun.List(s.permForms(name)), s.NS, s.NS)
}

// userPermissions lists the permissions a user holds through any global
// membership, inherited ones included.
func userPermissions(ctx context.Context, db bun.IDB, s Scope, user string) ([]string, error) {
	_, perms, err := UserGrants(ctx, db, s, "", user)
	return perms, err
}

// UserGrants returns a user's roles and effective permissions (the roles'
// own and inherited), of the memberships and grants held now, in one query: what the decision cache keeps for a
// user. With scope "" they come from the global memberships; with a scope,
// from the memberships in that scope only (not the global ones): what the
// cache adds for a check in that scope.
func UserGrants(ctx context.Context, db bun.IDB, s Scope, scope, user string) (roles, perms []string, err error) {
	if scope == "" {
		return userGrants(ctx, db, s, "SELECT role FROM rolegate_memberships WHERE ns = ? AND user_name IN (?) AND "+s.held(""),
			s.NS, bun.List(s.userForms(user)))
	}
	return userGrants(ctx, db, s,
		"SELECT role FROM rolegate_scoped_memberships WHERE ns = ? AND scope = ? AND user_name IN (?) AND "+s.held(""),
		s.NS, scope, bun.List(s.userForms(user)))
}

// userGrants runs the grants query over the memberships that members
// selects (one column, role).
func userGrants(ctx context.Context, db bun.IDB, s Scope, members string, args ...any) (roles, perms []string, err error) {
	var rows []struct {
		Role sql.NullString `bun:"role"`
		Name sql.NullString `bun:"name"`
	}
	args = append(args, s.NS, s.NS)
	err = db.NewRaw(`WITH m(role) AS (`+members+`),
		`+fmt.Sprintf(ancestorsCTE, "SELECT role FROM m")+`
		SELECT role, CAST(NULL AS TEXT) AS name FROM m
		UNION ALL SELECT CAST(NULL AS TEXT), p.name FROM rolegate_permissions p
			WHERE p.ns = ? AND p.role IN (SELECT role FROM r) AND `+s.held("p"), args...).Scan(ctx, &rows)
	if err != nil {
		return nil, nil, Classify(err)
	}
	roles = make([]string, 0, 4)
	stored := make([]string, 0, len(rows))
	for _, r := range rows {
		if r.Role.Valid {
			roles = append(roles, r.Role.String)
		}
		if r.Name.Valid {
			stored = append(stored, r.Name.String)
		}
	}
	perms, err = plainAll(s.Permissions, stored)
	return sortedUnique(roles), perms, err
}

func exists(ctx context.Context, db bun.IDB, query string, args ...any) (bool, error) {
	var n int
	err := db.NewRaw(query, args...).Scan(ctx, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, Classify(err)
}

// names runs a query returning one stored-name column and gives the plain
// names, sorted and deduplicated.
func names(ctx context.Context, db bun.IDB, c Codec, query string, args ...any) ([]string, error) {
	var stored []string
	if err := db.NewRaw(query, args...).Scan(ctx, &stored); err != nil {
		return nil, Classify(err)
	}
	return plainAll(c, stored)
}

func sortRoles(r []Role) {
	slices.SortFunc(r, func(a, b Role) int { return strings.Compare(a.Name, b.Name) })
}
