package storage_test

import (
	"context"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestListsReadAlike: for every list, Each (window by window) and Names
// (one read) give the same entries, EachMember and Members too, and a
// list read in a way it does not support is an error, not an empty list.
func TestListsReadAlike(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := storage.Scope{NS: storage.NamespaceOf("6f1c2e9a-3b4d-4c5e-9f60-718293a4b5c6")}
		must := func(_ bool, err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range []string{"admin", "editor", "viewer"} {
			must(storage.AddRole(ctx, db, s, r, ""))
		}
		must(storage.AddPermission(ctx, db, s, "viewer", "read"))
		must(storage.AddPermission(ctx, db, s, "editor", "edit"))
		must(storage.AddInheritance(ctx, db, s, "editor", "viewer"))
		must(storage.AddInheritance(ctx, db, s, "admin", "editor"))
		must(storage.AddMembership(ctx, db, s, "", "sara", "editor"))
		must(storage.AddMembership(ctx, db, s, "", "bob", "viewer"))
		must(storage.AddMembership(ctx, db, s, "org-1", "sara", "admin"))
		must(storage.AddMembership(ctx, db, s, "org-1", "carl", "editor"))
		cases := []struct {
			l    storage.List
			of   string
			want []string
		}{
			{storage.PermissionsOfRole, "editor", []string{"edit"}},
			{storage.EffectivePermissionsOfRole, "editor", []string{"edit", "read"}},
			{storage.MembersOfRole, "editor", []string{"sara"}},
			{storage.ParentsOfRole, "admin", []string{"editor"}},
			{storage.RolesOfUser, "sara", []string{"editor"}},
			{storage.PermissionsOfUser, "sara", []string{"edit", "read"}},
			{storage.RolesWithPermission, "read", []string{"admin", "editor", "viewer"}},
			{storage.UsersWithPermission, "read", []string{"bob", "sara"}},
		}
		for _, c := range cases {
			names, err := storage.Names(ctx, db, s, c.l, c.of)
			if err != nil || !slices.Equal(names, c.want) {
				t.Errorf("Names(%v, %s) = %q, %v; want %q", c.l, c.of, names, err, c.want)
			}
			var each []string
			err = storage.Each(ctx, db, s, c.l, "", c.of, storage.ListWindow{Window: 1}, func(p []string) error {
				each = append(each, p...)
				return nil
			})
			if err != nil || !slices.Equal(each, c.want) {
				t.Errorf("Each(%v, %s) = %q, %v; want %q", c.l, c.of, each, err, c.want)
			}
		}
		if n, err := storage.Names(ctx, db, s, storage.RolesGrantedPermission, "read"); err != nil || !slices.Equal(n, []string{"viewer"}) {
			t.Errorf("roles granted read: %q, %v", n, err)
		}
		if n, err := storage.Names(ctx, db, s, storage.ChildrenOfRole, "viewer"); err == nil {
			t.Errorf("Names of children: %q, want an error", n)
		}
		// In scope org-1.
		var perms []string
		if err := storage.Each(ctx, db, s, storage.PermissionsOfUser, "org-1", "carl", storage.ListWindow{}, func(p []string) error {
			perms = append(perms, p...)
			return nil
		}); err != nil || !slices.Equal(perms, []string{"edit", "read"}) {
			t.Errorf("carl's permissions in org-1: %q, %v", perms, err)
		}
		if err := storage.Each(ctx, db, s, storage.RolesOfUser, "org-1", "sara", storage.ListWindow{}, func([]string) error { return nil }); err == nil {
			t.Error("Each of a user's roles in a scope: no error")
		}
		for _, c := range []struct {
			l    storage.List
			of   string
			want []storage.Member
		}{
			{storage.MembersOfRole, "editor", []storage.Member{{Name: "carl", Scope: "org-1"}, {Name: "sara"}}},
			{storage.RolesOfUser, "sara", []storage.Member{{Name: "admin", Scope: "org-1"}, {Name: "editor"}}},
			{storage.UsersWithPermission, "edit", []storage.Member{{Name: "carl", Scope: "org-1"}, {Name: "sara"}}},
		} {
			m, err := storage.Members(ctx, db, s, c.l, "org-1", c.of)
			if err != nil || !slices.Equal(m, c.want) {
				t.Errorf("Members(%v, org-1, %s) = %v, %v; want %v", c.l, c.of, m, err, c.want)
			}
			var each []storage.Member
			err = storage.EachMember(ctx, db, s, c.l, "org-1", c.of, storage.ListWindow{Window: 1}, func(p []storage.Member) error {
				each = append(each, p...)
				return nil
			})
			if err != nil || !slices.Equal(each, c.want) {
				t.Errorf("EachMember(%v, org-1, %s) = %v, %v; want %v", c.l, c.of, each, err, c.want)
			}
		}
		if _, err := storage.Members(ctx, db, s, storage.PermissionsOfRole, "org-1", "editor"); err == nil {
			t.Error("Members of a role's permissions: no error")
		}
	})
}
