package storage

import (
	"context"
	"slices"
	"strings"

	"github.com/uptrace/bun"
)

// Scoped memberships: a membership that holds in one scope only (a tenant,
// an org, a project). The reads here that take a scope answer for the
// global memberships and those in that scope together; the seed's
// functions (userRoles, roleMembers, whichUsersCan, ...) answer for the
// global ones only.

// Member is one entry of a list that mixes global and scoped memberships:
// Name is a role or a user, Scope is empty for a global membership.
type Member struct {
	Name  string
	Scope string
}

// userRolesIn lists the user's roles globally and in scope.
func userRolesIn(ctx context.Context, db bun.IDB, s Scope, scope, user string) ([]Member, error) {
	var rows []memberRow
	forms := bun.List(s.userForms(user))
	err := db.NewRaw(`SELECT role AS name, '' AS scope FROM rolegate_memberships WHERE ns = ? AND user_name IN (?) AND `+s.held("")+`
		UNION ALL SELECT role, scope FROM rolegate_scoped_memberships WHERE ns = ? AND scope = ? AND user_name IN (?) AND `+s.held(""),
		s.NS, forms, s.NS, scope, forms).Scan(ctx, &rows)
	if err != nil {
		return nil, Classify(err)
	}
	return sortedMembers(rows, nil)
}

// roleMembersIn lists the role's members globally and in scope;
// ErrRoleNotFound when the role does not exist.
func roleMembersIn(ctx context.Context, db bun.IDB, s Scope, scope, role string) ([]Member, error) {
	if err := requireRole(ctx, db, s, role); err != nil {
		return nil, err
	}
	var rows []memberRow
	err := db.NewRaw(`SELECT user_name AS name, '' AS scope FROM rolegate_memberships WHERE ns = ? AND role = ? AND `+s.held("")+`
		UNION ALL SELECT user_name, scope FROM rolegate_scoped_memberships WHERE ns = ? AND scope = ? AND role = ? AND `+s.held(""),
		s.NS, role, s.NS, scope, role).Scan(ctx, &rows)
	if err != nil {
		return nil, Classify(err)
	}
	return sortedMembers(rows, s.plainUser)
}

// whichUsersCanIn lists the users holding the permission in scope: through
// a global membership (Scope empty) or, for the others, through a
// membership in scope (Scope set).
func whichUsersCanIn(ctx context.Context, db bun.IDB, s Scope, scope, name string) ([]Member, error) {
	var rows []memberRow
	err := db.NewRaw("WITH RECURSIVE "+s.descendantsCTE()+`
		SELECT user_name AS name, '' AS scope FROM rolegate_memberships WHERE ns = ? AND role IN (SELECT role FROM d) AND `+s.held("")+`
		UNION ALL SELECT user_name, scope FROM rolegate_scoped_memberships
			WHERE ns = ? AND scope = ? AND role IN (SELECT role FROM d) AND `+s.held(""),
		s.NS, bun.List(s.permForms(name)), s.NS, s.NS, s.NS, scope).Scan(ctx, &rows)
	if err != nil {
		return nil, Classify(err)
	}
	all, err := sortedMembers(rows, s.plainUser)
	if err != nil {
		return nil, err
	}
	// One entry per user: the global one when there is one (it sorts first).
	return slices.CompactFunc(all, func(a, b Member) bool { return a.Name == b.Name }), nil
}

// userMemberships lists the user's memberships globally and in scope
// (scope empty: global only), for explaining a decision.
func userMemberships(ctx context.Context, db bun.IDB, s Scope, scope, user string) ([]Member, error) {
	if scope == "" {
		roles, err := userRoles(ctx, db, s, user)
		out := make([]Member, len(roles))
		for i, r := range roles {
			out[i] = Member{Name: r}
		}
		return out, err
	}
	return userRolesIn(ctx, db, s, scope, user)
}

type memberRow struct {
	Name  string `bun:"name"`
	Scope string `bun:"scope"`
}

// sortedMembers decodes the names (when plain is set), sorts by name then
// scope (global first) and deduplicates.
func sortedMembers(rows []memberRow, plain func(string) (string, error)) ([]Member, error) {
	out := make([]Member, 0, len(rows))
	for _, r := range rows {
		n := r.Name
		if plain != nil {
			var err error
			if n, err = plain(n); err != nil {
				return nil, err
			}
		}
		out = append(out, Member{Name: n, Scope: r.Scope})
	}
	slices.SortFunc(out, func(a, b Member) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Scope, b.Scope)
	})
	return slices.Compact(out), nil
}

// ScopesOfUser returns the scopes in which user holds scoped memberships,
// sorted, at most limit (GET /api/whoami weighs a delegated admin's
// scopes with it). Every stored form of the name counts (during a key
// rotation a user's rows may be under either key).
func ScopesOfUser(ctx context.Context, db bun.IDB, s Scope, user string, limit int) ([]string, error) {
	var out []string
	err := db.NewRaw(`SELECT DISTINCT scope FROM rolegate_scoped_memberships WHERE ns = ? AND user_name IN (?) ORDER BY scope LIMIT ?`,
		s.NS, bun.List(s.userForms(user)), limit).Scan(ctx, &out)
	return out, Classify(err)
}
