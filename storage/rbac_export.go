package storage

import (
	"context"
	"slices"
	"strings"

	"github.com/uptrace/bun"
)

// Whole-namespace reads for exports and backups (policy export, rolegatectl
// backup): every inheritance link, every scoped membership. They hold the
// namespace's rows of one table in memory, as the export they feed does.

// AllEdges lists every inheritance link of the namespace, sorted by role
// then parent.
func AllEdges(ctx context.Context, db bun.IDB, s Scope) ([]Edge, error) {
	var out []Edge
	if err := db.NewRaw("SELECT role, parent FROM rolegate_role_parents WHERE ns = ?", s.NS).Scan(ctx, &out); err != nil {
		return nil, Classify(err)
	}
	slices.SortFunc(out, func(a, b Edge) int {
		if c := strings.Compare(a.Role, b.Role); c != 0 {
			return c
		}
		return strings.Compare(a.Parent, b.Parent)
	})
	return slices.Compact(out), nil
}

// ScopedMembership is one membership that holds in one scope only.
type ScopedMembership struct {
	Scope string `bun:"scope"`
	User  string `bun:"user_name"`
	Role  string `bun:"role"`
}

// AllScopedMemberships lists every scoped membership of the namespace with
// plain user names, sorted by scope, user, role.
func AllScopedMemberships(ctx context.Context, db bun.IDB, s Scope) ([]ScopedMembership, error) {
	var out []ScopedMembership
	if err := db.NewRaw("SELECT scope, user_name, role FROM rolegate_scoped_memberships WHERE ns = ?", s.NS).Scan(ctx, &out); err != nil {
		return nil, Classify(err)
	}
	for i := range out {
		u, err := s.plainUser(out[i].User)
		if err != nil {
			return nil, err
		}
		out[i].User = u
	}
	slices.SortFunc(out, func(a, b ScopedMembership) int {
		if c := strings.Compare(a.Scope, b.Scope); c != 0 {
			return c
		}
		if c := strings.Compare(a.User, b.User); c != 0 {
			return c
		}
		return strings.Compare(a.Role, b.Role)
	})
	return slices.Compact(out), nil
}
