package storage_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestEachScopedListsMatchSlices: the windowed scoped, effective and
// inherits lists equal the slice functions the library uses, for every
// window size from 1 to 4 and every after cursor, with names in byte
// order (case, accents, CJK), plain and encrypted, and on PostgreSQL both
// with COLLATE "C" and with the database's own collation.
func TestEachScopedListsMatchSlices(t *testing.T) {
	c, err := cipher.New("windowed scoped lists test passphrase")
	if err != nil {
		t.Fatal(err)
	}
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if storage.IsPostgres(db) {
			if storage.SortsAsBytes(ctx, db) {
				storage.SetBytewise(db, true)
				checkEachScoped(t, db, c, "own collation")
			}
			storage.SetBytewise(db, false)
			checkEachScoped(t, db, c, "collate C")
			return
		}
		checkEachScoped(t, db, c, "")
	})
}

func checkEachScoped(t *testing.T, db *bun.DB, c *cipher.Cipher, mode string) {
	ctx := context.Background()
	names := []string{"b", "B", "a", "Z", "é", "e", "ä", "日", "e-1", "e1"}
	for _, s := range []storage.Scope{
		{NS: storage.NamespaceOf("splain" + mode)},
		{NS: storage.NamespaceOf("senc" + mode), Users: c.ForColumn([]byte("senc"+mode), cipher.ColumnUser, 2), Permissions: c.ForColumn([]byte("senc"+mode), cipher.ColumnPermission, 2)},
	} {
		must := func(_ bool, err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(storage.AddRole(ctx, db, s, "child", ""))
		for _, n := range names {
			must(storage.AddRole(ctx, db, s, n, ""))
		}
		for i, n := range names {
			must(storage.AddPermission(ctx, db, s, n, "p"+n))
			must(storage.AddInheritance(ctx, db, s, "child", n))
			// u: global in the first half, in S from the fourth on (both
			// ways for the fourth and fifth), in T for the last.
			if i < 5 {
				must(storage.AddMembership(ctx, db, s, "", "u", n))
			}
			if i >= 3 {
				must(storage.AddMembership(ctx, db, s, "S", "u", n))
			}
			// Role "a": members n globally for even i, in S for i >= 4.
			if i%2 == 0 {
				must(storage.AddMembership(ctx, db, s, "", n, "a"))
			}
			if i >= 4 {
				must(storage.AddMembership(ctx, db, s, "S", n, "a"))
			}
		}
		must(storage.AddMembership(ctx, db, s, "T", "u", "child"))
		must(storage.AddMembership(ctx, db, s, "T", "x", "a"))
		must(storage.AddPermission(ctx, db, s, "a", "shared"))
		must(storage.AddPermission(ctx, db, s, "b", "shared"))

		str := func(m storage.Member) string {
			if m.Scope == "" {
				return m.Name
			}
			return m.Name + "@" + m.Scope
		}
		strs := func(ms []storage.Member, err error) []string {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			out := make([]string, len(ms))
			for i, m := range ms {
				out[i] = str(m)
			}
			return out
		}
		plain := func(v []string, err error) []string {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		_, global, err := storage.UserGrants(ctx, db, s, "", "u")
		if err != nil {
			t.Fatal(err)
		}
		_, scoped, err := storage.UserGrants(ctx, db, s, "S", "u")
		if err != nil {
			t.Fatal(err)
		}
		permsIn := slices.Compact(slices.Sorted(slices.Values(append(global, scoped...))))
		type list struct {
			want   []string
			each   func(storage.ListWindow, func([]string) error) error
			member func(storage.ListWindow, func([]storage.Member) error) error
		}
		lists := map[string]list{
			"parents": {want: plain(storage.RoleParents(ctx, db, s, "child")),
				each: func(w storage.ListWindow, fn func([]string) error) error {
					return storage.EachRoleParent(ctx, db, s, "child", w, fn)
				}},
			"effective": {want: plain(storage.RoleEffectivePermissions(ctx, db, s, "child")),
				each: func(w storage.ListWindow, fn func([]string) error) error {
					return storage.EachRoleEffectivePermission(ctx, db, s, "child", w, fn)
				}},
			"user_permissions_in": {want: permsIn,
				each: func(w storage.ListWindow, fn func([]string) error) error {
					return storage.EachUserPermissionIn(ctx, db, s, "S", "u", w, fn)
				}},
			"user_roles_in": {want: strs(storage.UserRolesIn(ctx, db, s, "S", "u")),
				member: func(w storage.ListWindow, fn func([]storage.Member) error) error {
					return storage.EachUserRoleIn(ctx, db, s, "S", "u", w, fn)
				}},
			"members_in": {want: strs(storage.RoleMembersIn(ctx, db, s, "S", "a")),
				member: func(w storage.ListWindow, fn func([]storage.Member) error) error {
					return storage.EachRoleMemberIn(ctx, db, s, "S", "a", w, fn)
				}},
			"which_users_can_in": {want: strs(storage.WhichUsersCanIn(ctx, db, s, "S", "shared")),
				member: func(w storage.ListWindow, fn func([]storage.Member) error) error {
					return storage.EachWhichUserCanIn(ctx, db, s, "S", "shared", w, fn)
				}},
		}
		for name, l := range lists {
			if len(l.want) < 8 {
				t.Fatalf("%s %s: fixture lists only %q", mode, name, l.want)
			}
			collect := func(w storage.ListWindow) (out, last []string) {
				t.Helper()
				var err error
				if l.each != nil {
					err = l.each(w, func(p []string) error {
						out, last = append(out, p...), p
						return nil
					})
				} else {
					err = l.member(w, func(p []storage.Member) error {
						last = nil
						for _, m := range p {
							out, last = append(out, str(m)), append(last, m.Name)
						}
						return nil
					})
				}
				if err != nil {
					t.Fatal(err)
				}
				return out, last
			}
			nameOf := func(e string) string {
				if i := len(e) - len("@S"); l.member != nil && i > 0 && e[i:] == "@S" {
					return e[:i]
				}
				return e
			}
			for window := 1; window <= 4; window++ {
				if got, _ := collect(storage.ListWindow{Window: window}); !slices.Equal(got, l.want) {
					t.Errorf("%s %s window %d: %q, want %q", mode, name, window, got, l.want)
				}
				// Paging by window entries, after the last name: every
				// entry once.
				var paged []string
				after := ""
				for range 30 {
					page, _ := collect(storage.ListWindow{Window: window, Limit: window, After: after})
					paged = append(paged, page...)
					if len(page) < window {
						break
					}
					after = nameOf(page[len(page)-1])
				}
				if !slices.Equal(paged, l.want) {
					t.Errorf("%s %s paged by %d: %q, want %q", mode, name, window, paged, l.want)
				}
			}
			// After a name: the entries of greater names only.
			after := nameOf(l.want[2])
			var rest []string
			for _, e := range l.want {
				if nameOf(e) > after {
					rest = append(rest, e)
				}
			}
			if got, _ := collect(storage.ListWindow{Window: 2, After: after}); !slices.Equal(got, rest) {
				t.Errorf("%s %s after %q: %q, want %q", mode, name, after, got, rest)
			}
		}
		for _, f := range []func() error{
			func() error {
				return storage.EachRoleParent(ctx, db, s, "nope", storage.ListWindow{}, func([]string) error { return fmt.Errorf("called") })
			},
			func() error {
				return storage.EachRoleEffectivePermission(ctx, db, s, "nope", storage.ListWindow{}, func([]string) error { return fmt.Errorf("called") })
			},
			func() error {
				return storage.EachRoleMemberIn(ctx, db, s, "S", "nope", storage.ListWindow{}, func([]storage.Member) error { return fmt.Errorf("called") })
			},
		} {
			if err := f(); err != storage.ErrRoleNotFound {
				t.Errorf("%s: missing role: %v, want ErrRoleNotFound", mode, err)
			}
		}
	}
}
