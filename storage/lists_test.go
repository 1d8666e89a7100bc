package storage_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestEachListsInByteOrder: the windowed lists give every entry once, in
// Go's byte order (which a locale collation would not: "a" < "B" there),
// across windows, with after and limit, plain and encrypted.
func TestEachListsInByteOrder(t *testing.T) {
	c, err := cipher.New("windowed lists test passphrase")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"b", "B", "a", "Z", "é", "e", "ä", "日", "e-1", "e1"}
	if !slices.IsSorted(storage.BytewiseProbe) {
		t.Fatalf("the collation probe is not in byte order")
	}
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if storage.IsPostgres(db) {
			// Both ways of ordering: COLLATE "C", and the database's own
			// collation when it sorts as bytes.
			bytewise := storage.SortsAsBytes(ctx, db)
			t.Logf("database collation sorts as bytes: %v", bytewise)
			if bytewise {
				storage.SetBytewise(db, true)
				checkEachLists(t, db, c, names, "own collation")
			}
			storage.SetBytewise(db, false)
			checkEachLists(t, db, c, names, "collate C")
			return
		}
		checkEachLists(t, db, c, names, "")
	})
}

func checkEachLists(t *testing.T, db *bun.DB, c *cipher.Cipher, names []string, mode string) {
	t.Helper()
	ctx := context.Background()
	{
		for _, s := range []storage.Scope{
			{NS: storage.NamespaceOf("plain" + mode)},
			{NS: storage.NamespaceOf("enc" + mode), Users: c.ForColumn([]byte("enc"), cipher.ColumnUser, 2), Permissions: c.ForColumn([]byte("enc"), cipher.ColumnPermission, 2)},
		} {
			for _, n := range names {
				if _, err := storage.AddRole(ctx, db, s, n, "d"+n); err != nil {
					t.Fatal(err)
				}
			}
			for _, n := range names {
				if _, err := storage.AddPermission(ctx, db, s, "a", n); err != nil {
					t.Fatal(err)
				}
				if _, err := storage.AddMembership(ctx, db, s, "", n, "a"); err != nil {
					t.Fatal(err)
				}
				if _, err := storage.AddMembership(ctx, db, s, "", "u", n); err != nil {
					t.Fatal(err)
				}
			}
			want := slices.Sorted(slices.Values(names))
			collect := func(each func(storage.ListWindow, func([]string) error) error, w storage.ListWindow) []string {
				t.Helper()
				var out []string
				if err := each(w, func(p []string) error {
					if len(p) > w.Window {
						t.Errorf("window of %d entries, want at most %d", len(p), w.Window)
					}
					out = append(out, p...)
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				return out
			}
			lists := map[string]func(storage.ListWindow, func([]string) error) error{
				"roles": func(w storage.ListWindow, fn func([]string) error) error {
					return storage.EachRole(ctx, db, s, w, func(rs []storage.Role) error {
						p := make([]string, len(rs))
						for i, r := range rs {
							if r.Description != "d"+r.Name {
								t.Errorf("role %q description %q", r.Name, r.Description)
							}
							p[i] = r.Name
						}
						return fn(p)
					})
				},
				"role_permissions": func(w storage.ListWindow, fn func([]string) error) error {
					return storage.EachRolePermission(ctx, db, s, "a", w, fn)
				},
				"user_permissions": func(w storage.ListWindow, fn func([]string) error) error {
					return storage.EachUserPermission(ctx, db, s, "u", w, fn)
				},
				"members": func(w storage.ListWindow, fn func([]string) error) error {
					return storage.EachRoleMember(ctx, db, s, "a", w, fn)
				},
				"user_roles": func(w storage.ListWindow, fn func([]string) error) error {
					return storage.EachUserRole(ctx, db, s, "u", w, fn)
				},
				"which_users_can": func(w storage.ListWindow, fn func([]string) error) error {
					return storage.EachWhichUserCan(ctx, db, s, "e", w, fn)
				},
			}
			for name, each := range lists {
				exp := want
				if name == "which_users_can" || name == "members" {
					// Role "a" (the only one granting "e") has every name
					// and u as members.
					exp = append([]string{}, names...)
					exp = append(exp, "u")
					slices.Sort(exp)
				}
				if got := collect(each, storage.ListWindow{Window: 3}); !slices.Equal(got, exp) {
					t.Errorf("%s: %q, want %q", name, got, exp)
				}
				i := slices.Index(exp, "B")
				if got := collect(each, storage.ListWindow{Window: 2, After: "B", Limit: 5}); !slices.Equal(got, exp[i+1:i+6]) {
					t.Errorf("%s after B limit 5: %q, want %q", name, got, exp[i+1:i+6])
				}
			}
			var roles []string
			if err := storage.EachWhichRoleCan(ctx, db, s, "e", storage.ListWindow{Window: 1}, func(p []string) error {
				roles = append(roles, p...)
				return nil
			}); err != nil || !slices.Equal(roles, []string{"a"}) {
				t.Errorf("which_roles_can e = %q, %v", roles, err)
			}
			called := false
			err := storage.EachRoleMember(ctx, db, s, "nope", storage.ListWindow{}, func([]string) error { called = true; return nil })
			if !errors.Is(err, storage.ErrRoleNotFound) || called {
				t.Errorf("members of a missing role: %v (called %v)", err, called)
			}
		}
	}
}
