package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Reads of the time bounds of rows, for the callers that show each row's
// bounds beside it (the REST lists, exports and backups). The checks never
// come here: the cache reads bounds with the rows it loads.

// bounded is the condition that a row has a bound.
const bounded = "(starts_at IS NOT NULL OR expires_at IS NOT NULL)"

// PageBounds reads the bounds of the rows of a page of a direct list (l
// is PermissionsOfRole or MembersOfRole of the role of, or RolesOfUser of
// the user of), read with ListWindow.All: the rows named by names that
// have bounds, by name; a name left out has none. One query per page.
func PageBounds(ctx context.Context, db bun.IDB, s Scope, l List, of string, names []string) (map[string]TimeBounds, error) {
	if len(names) == 0 {
		return nil, nil
	}
	var q string
	var args []any
	var codec Codec
	switch l {
	case PermissionsOfRole:
		var forms []string
		for _, n := range names {
			forms = append(forms, s.permForms(n)...)
		}
		q = "SELECT name, starts_at, expires_at FROM rolegate_permissions WHERE ns = ? AND role = ? AND " + bounded + " AND name IN (?)"
		args, codec = []any{s.NS, of, bun.List(forms)}, s.Permissions
	case MembersOfRole:
		var forms []string
		for _, n := range names {
			forms = append(forms, s.userForms(n)...)
		}
		q = "SELECT user_name AS name, starts_at, expires_at FROM rolegate_memberships WHERE ns = ? AND role = ? AND " + bounded + " AND user_name IN (?)"
		args, codec = []any{s.NS, of, bun.List(forms)}, s.Users
	case RolesOfUser:
		q = "SELECT role AS name, starts_at, expires_at FROM rolegate_memberships WHERE ns = ? AND user_name IN (?) AND " + bounded + " AND role IN (?)"
		args = []any{s.NS, bun.List(s.userForms(of)), bun.List(names)}
	default:
		return nil, errNoList(l, "by PageBounds")
	}
	var rows []struct {
		Name string `bun:"name"`
		boundRow
	}
	if err := db.NewRaw(q, args...).Scan(ctx, &rows); err != nil {
		return nil, Classify(err)
	}
	out := make(map[string]TimeBounds, len(rows))
	for _, r := range rows {
		name, err := plain(codec, r.Name)
		if err != nil {
			return nil, err
		}
		out[name] = r.bounds()
	}
	return out, nil
}

// ScopedPageBounds reads the bounds of a page of scoped memberships
// (EachScopedMembership's): those that have bounds, by membership.
func ScopedPageBounds(ctx context.Context, db bun.IDB, s Scope, page []ScopedMembership) (map[ScopedMembership]TimeBounds, error) {
	if len(page) == 0 {
		return nil, nil
	}
	var scopes, users []string
	seenScope, seenUser := map[string]bool{}, map[string]bool{}
	for _, m := range page {
		if !seenScope[m.Scope] {
			seenScope[m.Scope] = true
			scopes = append(scopes, m.Scope)
		}
		if !seenUser[m.User] {
			seenUser[m.User] = true
			users = append(users, s.userForms(m.User)...)
		}
	}
	var rows []struct {
		ScopedMembership
		boundRow
	}
	if err := db.NewRaw("SELECT scope, user_name, role, starts_at, expires_at FROM rolegate_scoped_memberships WHERE ns = ? AND "+
		bounded+" AND scope IN (?) AND user_name IN (?)", s.NS, bun.List(scopes), bun.List(users)).Scan(ctx, &rows); err != nil {
		return nil, Classify(err)
	}
	out := make(map[ScopedMembership]TimeBounds, len(rows))
	for _, r := range rows {
		m := r.ScopedMembership
		u, err := s.plainUser(m.User)
		if err != nil {
			return nil, err
		}
		m.User = u
		out[m] = r.bounds()
	}
	return out, nil
}

// BoundedRow is a membership (User, Role, Scope "" when global) or a
// grant (Role, Permission) that has time bounds.
type BoundedRow struct {
	Role, Permission, User, Scope string
	Bounds                        TimeBounds
}

// AllBounded reads every row of the namespace that has time bounds, held
// now or not, with plain names: for exports and backups, which hold the
// namespace in memory as they do.
func AllBounded(ctx context.Context, db bun.IDB, s Scope) ([]BoundedRow, error) {
	var rows []struct {
		Kind  int    `bun:"kind"`
		Role  string `bun:"role"`
		Name  string `bun:"name"`
		Scope string `bun:"scope"`
		boundRow
	}
	err := db.NewRaw(fmt.Sprintf(`SELECT 0 AS kind, role, name, '' AS scope, starts_at, expires_at FROM rolegate_permissions WHERE ns = ? AND %[1]s
		UNION ALL SELECT 1, role, user_name, '', starts_at, expires_at FROM rolegate_memberships WHERE ns = ? AND %[1]s
		UNION ALL SELECT 1, role, user_name, scope, starts_at, expires_at FROM rolegate_scoped_memberships WHERE ns = ? AND %[1]s`, bounded),
		s.NS, s.NS, s.NS).Scan(ctx, &rows)
	if err != nil {
		return nil, Classify(err)
	}
	out := make([]BoundedRow, 0, len(rows))
	for _, r := range rows {
		b := BoundedRow{Role: r.Role, Scope: r.Scope, Bounds: r.bounds()}
		if r.Kind == 0 {
			b.Permission, err = plain(s.Permissions, r.Name)
		} else {
			b.User, err = s.plainUser(r.Name)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// MembershipBounds reads the bounds of the user's membership of the role
// (globally when scope is "", else in scope), held now or not; found is
// false when there is no such row.
func MembershipBounds(ctx context.Context, db bun.IDB, s Scope, scope, user, role string) (b TimeBounds, found bool, err error) {
	if scope == "" {
		return rowBounds(ctx, db, "SELECT starts_at, expires_at FROM rolegate_memberships WHERE ns = ? AND role = ? AND user_name IN (?)",
			s.NS, role, bun.List(s.userForms(user)))
	}
	return rowBounds(ctx, db, "SELECT starts_at, expires_at FROM rolegate_scoped_memberships WHERE ns = ? AND scope = ? AND role = ? AND user_name IN (?)",
		s.NS, scope, role, bun.List(s.userForms(user)))
}

// PermissionBounds reads the bounds of the role's own grant of the
// permission, held now or not; found is false when there is none.
func PermissionBounds(ctx context.Context, db bun.IDB, s Scope, role, name string) (b TimeBounds, found bool, err error) {
	return rowBounds(ctx, db, "SELECT starts_at, expires_at FROM rolegate_permissions WHERE ns = ? AND role = ? AND name IN (?)",
		s.NS, role, bun.List(s.permForms(name)))
}

func rowBounds(ctx context.Context, db bun.IDB, q string, args ...any) (TimeBounds, bool, error) {
	var rows []boundRow
	if err := db.NewRaw(q+" LIMIT 1", args...).Scan(ctx, &rows); err != nil {
		return TimeBounds{}, false, Classify(err)
	}
	if len(rows) == 0 {
		return TimeBounds{}, false, nil
	}
	return rows[0].bounds(), true, nil
}

// WhoCanUntil reads until when each user of a page of UsersWithPermission
// of the permission name (the users holding it now through a global
// membership, or, with a scope, through a global one or one in scope)
// holds it: a user may hold it through several paths (a membership, the
// role's inherited roles, a grant), each held until the earlier of its
// membership's and its grant's expires_at, and the user holds it until the
// latest of the ends of her paths held now. A user with an unbounded path
// held now, or none found (the rows changed since the page was read), is
// left out: no end. One query per page.
func WhoCanUntil(ctx context.Context, db bun.IDB, s Scope, scope, name string, users []string) (map[string]time.Time, error) {
	if len(users) == 0 {
		return nil, nil
	}
	var forms []string
	for _, u := range users {
		forms = append(forms, s.userForms(u)...)
	}
	// m is the page's memberships held now, g every role holding the
	// permission with the expiry of the grant it holds it by: one row per
	// path (UNION ALL keeps them all).
	members := "SELECT user_name, role, expires_at FROM rolegate_memberships WHERE ns = ? AND user_name IN (?) AND " + s.held("")
	args := []any{s.NS, bun.List(forms)}
	if scope != "" {
		members += `
			UNION ALL SELECT user_name, role, expires_at FROM rolegate_scoped_memberships
			WHERE ns = ? AND scope = ? AND user_name IN (?) AND ` + s.held("")
		args = append(args, s.NS, scope, bun.List(forms))
	}
	var rows []struct {
		Name       string       `bun:"name"`
		Membership bun.NullTime `bun:"membership_expires"`
		Grant      bun.NullTime `bun:"grant_expires"`
	}
	err := db.NewRaw(`WITH m(user_name, role, expires_at) AS (`+members+`),
		g0(role, expires_at) AS (SELECT role, expires_at FROM rolegate_permissions
			WHERE ns = ? AND name IN (?) AND `+s.held("")+`),
		g(role, expires_at) AS (SELECT role, expires_at FROM g0
			UNION ALL SELECT a.role, g0.expires_at FROM g0 CROSS JOIN rolegate_role_ancestors a WHERE a.ns = ? AND a.ancestor = g0.role)
		SELECT m.user_name AS name, m.expires_at AS membership_expires, g.expires_at AS grant_expires
		FROM m JOIN g ON g.role = m.role`,
		append(args, s.NS, bun.List(s.permForms(name)), s.NS)...).Scan(ctx, &rows)
	if err != nil {
		return nil, Classify(err)
	}
	until := make(map[string]time.Time, len(users))
	unbounded := map[string]bool{}
	for _, r := range rows {
		u, err := s.plainUser(r.Name)
		if err != nil {
			return nil, err
		}
		end := Earliest(TimeBounds{Expires: r.Membership.Time}.Normalized().Expires,
			TimeBounds{Expires: r.Grant.Time}.Normalized().Expires)
		switch {
		case unbounded[u]:
		case end.IsZero():
			unbounded[u] = true
			delete(until, u)
		case end.After(until[u]):
			until[u] = end
		}
	}
	return until, nil
}
