package storage

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// RoleGrants reads what the decision cache keeps per role with
// inheritance, for several roles at once: for each of roles (once per
// distinct name, in the order given) fn gets the roles the role's
// effective permissions are built from (sources: the role and all its
// ancestors, sorted) and, for each source in that order, the permissions
// granted to it directly (plain names, sorted and distinct; empty for
// none). The role's effective permissions are their union. A role that
// does not exist has no permissions and is its only source. Only grants
// held at the scope's now count (see TimeBounds); next is when the first
// grant of the role's sources starts or ends after it (zero: none will).
//
// The roles are read a chunk at a time (roleEffectiveChunk, one statement
// each, the ancestors and the grants together so both describe one state
// of the store), and each distinct source's grants are read once per
// chunk and handed to every role of the chunk inheriting from it as the
// same slice: a user in 600 roles inheriting one large role costs one
// statement, and the large role's names once. fn must not modify grants.
// An error from fn stops the read and is returned.
func RoleGrants(ctx context.Context, db bun.IDB, s Scope, roles []string, fn func(role string, sources []string, grants [][]string, next time.Time) error) error {
	seen := make(map[string]bool, len(roles))
	distinct := make([]string, 0, len(roles))
	for _, r := range roles {
		if !seen[r] {
			seen[r] = true
			distinct = append(distinct, r)
		}
	}
	for len(distinct) > 0 {
		chunk := distinct[:min(len(distinct), roleEffectiveChunk)]
		distinct = distinct[len(chunk):]
		if err := roleGrantsChunkRead(ctx, db, s, chunk, fn); err != nil {
			return err
		}
	}
	return nil
}

// RoleEffective is RoleGrants with each role's effective permissions,
// the union of its sources' grants (sorted and distinct), in place of the
// grants per source. perms may be shared between roles (one source's
// grants, when no other source adds to them): fn must not modify it.
func RoleEffective(ctx context.Context, db bun.IDB, s Scope, roles []string, fn func(role string, perms, sources []string) error) error {
	return RoleGrants(ctx, db, s, roles, func(role string, sources []string, grants [][]string, _ time.Time) error {
		var from [][]string
		for _, g := range grants {
			if len(g) > 0 {
				from = append(from, g)
			}
		}
		var perms []string
		switch len(from) {
		case 0:
			perms = []string{}
		case 1:
			perms = from[0] // shared: see the doc
		default:
			for _, p := range from {
				perms = append(perms, p...)
			}
			perms = sortedUnique(perms)
		}
		return fn(role, perms, sources)
	})
}

// roleEffectiveChunk is how many roles RoleGrants reads in one
// statement: its text grows with the names, so a user holding thousands of
// roles takes a few statements rather than one of megabytes.
const roleEffectiveChunk = 1000

func roleGrantsChunkRead(ctx context.Context, db bun.IDB, s Scope, roles []string, fn func(role string, sources []string, grants [][]string, next time.Time) error) error {
	var rows []struct {
		Seed sql.NullString `bun:"seed"`
		Role string         `bun:"role"`
		Name sql.NullString `bun:"name"`
		boundRow
	}
	// a: the roles' ancestors from the closure; r: the roles that exist
	// and their ancestors, each once; then the grants of r. (CROSS JOIN
	// makes SQLite read r first and the grants by their key.)
	err := db.NewRaw(`WITH a(role, ancestor) AS (SELECT role, ancestor FROM rolegate_role_ancestors WHERE ns = ? AND role IN (?)),
		r(role) AS (SELECT name FROM rolegate_roles WHERE ns = ? AND name IN (?) UNION SELECT ancestor FROM a)
		SELECT role AS seed, ancestor AS role, CAST(NULL AS TEXT) AS name, CAST(NULL AS TIMESTAMP) AS starts_at, CAST(NULL AS TIMESTAMP) AS expires_at FROM a
		UNION ALL SELECT CAST(NULL AS TEXT), p.role, p.name, p.starts_at, p.expires_at FROM r CROSS JOIN rolegate_permissions p WHERE p.ns = ? AND p.role = r.role`,
		s.NS, bun.List(roles), s.NS, bun.List(roles), s.NS).Scan(ctx, &rows)
	if err != nil {
		return Classify(err)
	}
	ancestors := map[string][]string{}
	stored := map[string][]string{}
	// nexts: per role, when its first grant starts or ends after now.
	now, nexts := s.now(), map[string]time.Time{}
	for _, r := range rows {
		switch {
		case r.Seed.Valid:
			ancestors[r.Seed.String] = append(ancestors[r.Seed.String], r.Role)
		case r.Name.Valid:
			if b := r.bounds(); !b.IsZero() {
				if next := b.Next(now); !next.IsZero() {
					nexts[r.Role] = Earliest(nexts[r.Role], next)
				}
				if !b.HeldAt(now) {
					continue
				}
			}
			stored[r.Role] = append(stored[r.Role], r.Name.String)
		}
	}
	rows = nil
	// Each role's grants in plain text, once, however many roles inherit
	// them.
	granted := make(map[string][]string, len(stored))
	for role, names := range stored {
		perms, err := plainAll(s.Permissions, names)
		if err != nil {
			return err
		}
		granted[role] = perms
	}
	none := []string{}
	for _, role := range roles {
		sources := sortedUnique(append([]string{role}, ancestors[role]...))
		grants := make([][]string, len(sources))
		var next time.Time
		for i, src := range sources {
			if grants[i] = granted[src]; grants[i] == nil {
				grants[i] = none
			}
			next = Earliest(next, nexts[src])
		}
		if err := fn(role, sources, grants, next); err != nil {
			return err
		}
	}
	return nil
}

// ScopedRole is a role a user holds in one scope only.
type ScopedRole struct {
	Scope, Role string
}

// UserRoleSets returns the roles the user holds globally (sorted,
// distinct) and those held through a membership in one scope only (by
// scope, then role, in byte order; each pair once): what the decision
// cache keeps per user. Only memberships held at the scope's now count
// (see TimeBounds); next is when the first of the user's memberships
// starts or ends after it (zero: none will), when the answer changes with
// no write. Only scopes the user has memberships in appear, so checks in
// other scopes (a scope name from a URL) add nothing.
//
// A user may hold thousands of scoped memberships (as many as the rows a
// client may store), so the rows are read with as little as each needs:
// one statement, the columns scanned into reused buffers, a role's name
// kept once however many scopes repeat it, and the scopes sorted only when
// the store did not answer in order (SQLite does, from the key).
func UserRoleSets(ctx context.Context, db bun.IDB, s Scope, user string) (global []string, scoped []ScopedRole, next time.Time, err error) {
	forms := bun.List(s.userForms(user))
	rows, err := db.QueryContext(ctx, `SELECT role, '' AS scope, starts_at, expires_at FROM rolegate_memberships WHERE ns = ? AND user_name IN (?)
		UNION ALL SELECT role, scope, starts_at, expires_at FROM rolegate_scoped_memberships WHERE ns = ? AND user_name IN (?)`,
		s.NS, forms, s.NS, forms)
	if err != nil {
		return nil, nil, time.Time{}, Classify(err)
	}
	defer rows.Close()
	now := s.now()
	var (
		role, scope sql.RawBytes
		b           boundRow
		last        string // the last role name kept: most rows repeat it
	)
	for rows.Next() {
		b = boundRow{}
		if err := rows.Scan(&role, &scope, &b.StartsAt, &b.ExpiresAt); err != nil {
			return nil, nil, time.Time{}, Classify(err)
		}
		if bounds := b.bounds(); !bounds.IsZero() {
			next = Earliest(next, bounds.Next(now))
			if !bounds.HeldAt(now) {
				continue
			}
		}
		if string(role) != last {
			last = string(role)
		}
		if len(scope) == 0 {
			global = append(global, last)
			continue
		}
		scoped = append(scoped, ScopedRole{Scope: string(scope), Role: last})
	}
	if err := rows.Err(); err != nil {
		return nil, nil, time.Time{}, Classify(err)
	}
	if !slices.IsSortedFunc(scoped, compareScopedRoles) {
		slices.SortFunc(scoped, compareScopedRoles)
	}
	scoped = slices.CompactFunc(scoped, func(a, b ScopedRole) bool { return a == b })
	return sortedUnique(global), scoped, next, nil
}

// compareScopedRoles orders scoped roles by scope, then role.
func compareScopedRoles(a, b ScopedRole) int {
	if c := strings.Compare(a.Scope, b.Scope); c != 0 {
		return c
	}
	return strings.Compare(a.Role, b.Role)
}
