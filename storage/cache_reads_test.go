package storage_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// What the decision cache reads, on both databases: a role's effective
// permissions with the roles they come from, and a user's roles globally
// and per scope held.
func TestCacheReads(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := storage.Scope{NS: storage.NamespaceOf("k1")}
		must := func(_ bool, err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range []string{"viewer", "editor", "admin", "other"} {
			must(storage.AddRole(ctx, db, s, r, ""))
		}
		must(storage.AddPermission(ctx, db, s, "viewer", "read"))
		must(storage.AddPermission(ctx, db, s, "editor", "edit"))
		must(storage.AddPermission(ctx, db, s, "editor", "read"))
		must(storage.AddPermission(ctx, db, s, "admin", "manage"))
		for _, l := range [][2]string{{"editor", "viewer"}, {"admin", "editor"}} {
			must(storage.AddInheritance(ctx, db, s, l[0], l[1]))
		}
		cases := []struct {
			role           string
			perms, sources []string
		}{
			{"admin", []string{"edit", "manage", "read"}, []string{"admin", "editor", "viewer"}},
			{"editor", []string{"edit", "read"}, []string{"editor", "viewer"}},
			{"viewer", []string{"read"}, []string{"viewer"}},
			{"other", []string{}, []string{"other"}},
			{"ghost", []string{}, []string{"ghost"}}, // no such role: no permissions
		}
		for _, c := range cases {
			perms, sources, err := roleEffective(ctx, db, s, c.role)
			if err != nil || !slices.Equal(perms, c.perms) || !slices.Equal(sources, c.sources) {
				t.Fatalf("RoleEffective(%s) = %v, %v, %v; want %v, %v", c.role, perms, sources, err, c.perms, c.sources)
			}
		}
		// The same per source: each source's own grants, one slice per
		// source for every role of the read inheriting it.
		bySource := map[string][]string{}
		err := storage.RoleGrants(ctx, db, s, []string{"admin", "editor", "ghost"}, func(role string, sources []string, grants [][]string, _ time.Time) error {
			if len(grants) != len(sources) {
				t.Fatalf("RoleGrants(%s): %d sources, %d grant lists", role, len(sources), len(grants))
			}
			for i, src := range sources {
				if prev, ok := bySource[src]; ok && (len(prev) > 0 && &prev[0] != &grants[i][0] || !slices.Equal(prev, grants[i])) {
					t.Errorf("RoleGrants: %s's grants for %s are %v, not the slice %v given before", src, role, grants[i], prev)
				}
				bySource[src] = grants[i]
			}
			return nil
		})
		for src, want := range map[string][]string{"admin": {"manage"}, "editor": {"edit", "read"}, "viewer": {"read"}, "ghost": {}} {
			if got, ok := bySource[src]; err != nil || !ok || !slices.Equal(got, want) {
				t.Fatalf("RoleGrants: %s's own grants %v (%v), %v; want %v", src, got, ok, err, want)
			}
		}
		// All at once (a name twice is answered once), in the order given.
		var order []string
		want := map[string]int{}
		var all []string
		for i, c := range cases {
			want[c.role] = i
			all = append(all, c.role)
		}
		all = append(all, "viewer")
		err = storage.RoleEffective(ctx, db, s, all, func(role string, perms, sources []string) error {
			order = append(order, role)
			c := cases[want[role]]
			if !slices.Equal(perms, c.perms) || !slices.Equal(sources, c.sources) {
				t.Errorf("RoleEffective(all) for %s = %v, %v; want %v, %v", role, perms, sources, c.perms, c.sources)
			}
			return nil
		})
		if err != nil || !slices.Equal(order, all[:len(cases)]) {
			t.Fatalf("RoleEffective(all) answered %v, %v; want each of %v once, in order", order, err, all[:len(cases)])
		}

		must(storage.AddMembership(ctx, db, s, "", "alice", "other"))
		must(storage.AddMembership(ctx, db, s, "org-42", "alice", "editor"))
		must(storage.AddMembership(ctx, db, s, "org-42", "alice", "viewer"))
		must(storage.AddMembership(ctx, db, s, "org-7", "alice", "viewer"))
		must(storage.AddMembership(ctx, db, s, "org-7", "bob", "admin"))
		global, scoped, _, err := storage.UserRoleSets(ctx, db, s, "alice")
		if err != nil || !slices.Equal(global, []string{"other"}) ||
			!slices.Equal(scoped, []storage.ScopedRole{{"org-42", "editor"}, {"org-42", "viewer"}, {"org-7", "viewer"}}) {
			t.Fatalf("UserRoleSets(alice) = %v, %v, %v", global, scoped, err)
		}
		global, scoped, _, err = storage.UserRoleSets(ctx, db, s, "nobody")
		if err != nil || len(global) != 0 || scoped != nil {
			t.Fatalf("UserRoleSets(nobody) = %v, %v, %v", global, scoped, err)
		}
	})
}

// roleEffective is storage.RoleEffective for one role.
func roleEffective(ctx context.Context, db bun.IDB, s storage.Scope, role string) (perms, sources []string, err error) {
	err = storage.RoleEffective(ctx, db, s, []string{role}, func(_ string, p, src []string) error {
		perms, sources = p, src
		return nil
	})
	return perms, sources, err
}
