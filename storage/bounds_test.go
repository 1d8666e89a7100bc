package storage_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// boundScopes are a plain and an encrypted namespace whose reads count
// bounds at *now.
func boundScopes(t *testing.T, now *time.Time) []storage.Scope {
	c, err := cipher.New("bounds test passphrase")
	if err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return *now }
	return []storage.Scope{
		{NS: storage.NamespaceOf("bounds-plain"), Now: clock},
		{NS: storage.NamespaceOf("bounds-enc"), Now: clock, Users: c.ForColumn([]byte("bounds-enc"), cipher.ColumnUser, 2),
			Permissions: c.ForColumn([]byte("bounds-enc"), cipher.ColumnPermission, 2)},
	}
}

// Putting a membership or a grant sets its bounds to exactly what it
// names: Created for a new row, Changed for a new row or new bounds,
// neither for the same bounds again; ErrRoleNotFound for a missing role.
func TestPutBounds(t *testing.T) {
	now := time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		for _, s := range boundScopes(t, &now) {
			if _, err := storage.AddRole(ctx, db, s, "editor", ""); err != nil {
				t.Fatal(err)
			}
			friday := storage.TimeBounds{Expires: now.Add(96*time.Hour + 123456789)}
			monday := storage.TimeBounds{Starts: now.Add(24 * time.Hour), Expires: now.Add(48 * time.Hour)}
			puts := []struct {
				name string
				put  func(b storage.TimeBounds) (storage.Put, error)
			}{
				{"global", func(b storage.TimeBounds) (storage.Put, error) {
					return storage.PutMembership(ctx, db, s, "", "carol", "editor", b)
				}},
				{"scoped", func(b storage.TimeBounds) (storage.Put, error) {
					return storage.PutMembership(ctx, db, s, "org-1", "carol", "editor", b)
				}},
				{"grant", func(b storage.TimeBounds) (storage.Put, error) {
					return storage.PutPermission(ctx, db, s, "editor", "edit", b)
				}},
			}
			for _, p := range puts {
				for i, step := range []struct {
					b    storage.TimeBounds
					want storage.Put
				}{
					{friday, storage.Put{Created: true, Changed: true}},
					{friday, storage.Put{}},
					{monday, storage.Put{Changed: true}},
					{storage.TimeBounds{}, storage.Put{Changed: true}},
					{storage.TimeBounds{}, storage.Put{}},
					{friday, storage.Put{Changed: true}},
				} {
					got, err := p.put(step.b)
					if err != nil || got != step.want {
						t.Fatalf("%s step %d: put(%v) = %+v, %v; want %+v", p.name, i, step.b, got, err, step.want)
					}
				}
			}
			if _, err := storage.PutMembership(ctx, db, s, "", "carol", "nobody", friday); !errors.Is(err, storage.ErrRoleNotFound) {
				t.Fatalf("membership of a missing role: %v, want ErrRoleNotFound", err)
			}
			if _, err := storage.PutPermission(ctx, db, s, "nobody", "edit", friday); !errors.Is(err, storage.ErrRoleNotFound) {
				t.Fatalf("grant to a missing role: %v, want ErrRoleNotFound", err)
			}
		}
	})
}

// The reads count a row only inside its window, at the scope's clock,
// and the cache's read of a user says when its answer changes next.
func TestReadsCountBounds(t *testing.T) {
	start := time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := start
		for _, s := range boundScopes(t, &now) {
			now = start
			must := func(_ any, err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, r := range []string{"editor", "viewer", "night"} {
				must(storage.AddRole(ctx, db, s, r, ""))
			}
			must(storage.AddInheritance(ctx, db, s, "editor", "viewer"))
			must(storage.AddPermission(ctx, db, s, "viewer", "read"))
			// edit from 10:00 until 12:00; carol an editor until 11:00;
			// dan a night member from 20:00, in org-1 only.
			must(storage.PutPermission(ctx, db, s, "editor", "edit", storage.TimeBounds{Starts: start.Add(time.Hour), Expires: start.Add(3 * time.Hour)}))
			must(storage.PutMembership(ctx, db, s, "", "carol", "editor", storage.TimeBounds{Expires: start.Add(2 * time.Hour)}))
			must(storage.PutMembership(ctx, db, s, "org-1", "dan", "night", storage.TimeBounds{Starts: start.Add(11 * time.Hour)}))
			must(storage.PutPermission(ctx, db, s, "night", "watch", storage.TimeBounds{}))

			type answer struct {
				carolPerms, editPerms, canEdit, canWatchIn []string
				carolRoles                                 []string
				next, roleNext                             time.Time
			}
			read := func() answer {
				t.Helper()
				var a answer
				var err error
				if a.carolPerms, err = storage.Names(ctx, db, s, storage.PermissionsOfUser, "carol"); err != nil {
					t.Fatal(err)
				}
				if a.editPerms, err = storage.Names(ctx, db, s, storage.EffectivePermissionsOfRole, "editor"); err != nil {
					t.Fatal(err)
				}
				if a.canEdit, err = storage.Names(ctx, db, s, storage.UsersWithPermission, "edit"); err != nil {
					t.Fatal(err)
				}
				ms, err := storage.Members(ctx, db, s, storage.UsersWithPermission, "org-1", "watch")
				if err != nil {
					t.Fatal(err)
				}
				a.canWatchIn = []string{}
				for _, m := range ms {
					a.canWatchIn = append(a.canWatchIn, m.Name)
				}
				if a.carolRoles, err = storage.Names(ctx, db, s, storage.RolesOfUser, "carol"); err != nil {
					t.Fatal(err)
				}
				g, _, next, err := storage.UserRoleSets(ctx, db, s, "carol")
				if err != nil || !slices.Equal(g, a.carolRoles) {
					t.Fatalf("UserRoleSets(carol) = %v, %v; want %v", g, err, a.carolRoles)
				}
				_, scoped, dnext, err := storage.UserRoleSets(ctx, db, s, "dan")
				if err != nil {
					t.Fatal(err)
				}
				var inOrg1 []string
				for _, m := range scoped {
					if m.Scope == "org-1" {
						inOrg1 = append(inOrg1, m.Role)
					}
				}
				if slices.Contains(a.canWatchIn, "dan") != slices.Equal(inOrg1, []string{"night"}) {
					t.Fatalf("dan in org-1: who-can says %v, the cache read %v", a.canWatchIn, scoped)
				}
				a.next = storage.Earliest(next, dnext)
				// The cache's read of a role: the same set, and when it
				// changes next.
				err = storage.RoleGrants(ctx, db, s, []string{"editor"}, func(_ string, _ []string, grants [][]string, next time.Time) error {
					union := []string{}
					for _, g := range grants {
						union = append(union, g...)
					}
					slices.Sort(union)
					if !slices.Equal(union, a.editPerms) {
						t.Fatalf("RoleGrants(editor) = %v; the list says %v", union, a.editPerms)
					}
					a.roleNext = next
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				return a
			}
			none := []string{}
			for _, step := range []struct {
				at   time.Duration
				want answer
			}{
				{0, answer{[]string{"read"}, []string{"read"}, none, none, []string{"editor"}, start.Add(2 * time.Hour), start.Add(time.Hour)}},
				{time.Hour, answer{[]string{"edit", "read"}, []string{"edit", "read"}, []string{"carol"}, none, []string{"editor"}, start.Add(2 * time.Hour), start.Add(3 * time.Hour)}},
				{2 * time.Hour, answer{none, []string{"edit", "read"}, none, none, none, start.Add(11 * time.Hour), start.Add(3 * time.Hour)}},
				{11 * time.Hour, answer{none, []string{"read"}, none, []string{"dan"}, none, time.Time{}, time.Time{}}},
			} {
				now = start.Add(step.at)
				got := read()
				if !slices.Equal(got.carolPerms, step.want.carolPerms) || !slices.Equal(got.editPerms, step.want.editPerms) ||
					!slices.Equal(got.canEdit, step.want.canEdit) || !slices.Equal(got.canWatchIn, step.want.canWatchIn) ||
					!slices.Equal(got.carolRoles, step.want.carolRoles) || !got.next.Equal(step.want.next) || !got.roleNext.Equal(step.want.roleNext) {
					t.Fatalf("at +%v: %+v\nwant %+v", step.at, got, step.want)
				}
			}
			// The direct lists with All show every row, held or not.
			var all []string
			err := storage.Each(ctx, db, s, storage.RolesOfUser, "", "carol", storage.ListWindow{All: true}, func(p []string) error {
				all = append(all, p...)
				return nil
			})
			if err != nil || !slices.Equal(all, []string{"editor"}) {
				t.Fatalf("RolesOfUser of carol with All = %v, %v", all, err)
			}
		}
	})
}

// Expired rows are removed by one transaction only: several expiring at
// once (as replicas do) return each row once between them, and rows not
// yet expired stay.
func TestExpireDueOnce(t *testing.T) {
	start := time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		db := storagetest.OpenTarget(t, target)
		now := start
		for _, s := range boundScopes(t, &now) {
			if _, err := storage.AddRole(ctx, db, s, "editor", ""); err != nil {
				t.Fatal(err)
			}
			want := map[string]bool{}
			for i := 0; i < 60; i++ {
				u, p := "u"+string(rune('A'+i%26))+string(rune('a'+i/26)), "p"+string(rune('a'+i%26))+string(rune('A'+i/26))
				b := storage.TimeBounds{Expires: start.Add(time.Duration(1+i%3) * time.Hour)} // a third stays
				for _, err := range []error{
					put(storage.PutMembership(ctx, db, s, "", u, "editor", b)),
					put(storage.PutMembership(ctx, db, s, "org-1", u, "editor", b)),
					put(storage.PutPermission(ctx, db, s, "editor", p, b)),
				} {
					if err != nil {
						t.Fatal(err)
					}
				}
				if i%3 != 2 {
					want["m "+u] = true
					want["s "+u] = true
					want["g "+p] = true
				}
			}
			at := start.Add(2 * time.Hour)
			got := make(chan []storage.Expired, 4)
			errs := make(chan error, 4)
			for w := 0; w < 4; w++ {
				go func() {
					var out []storage.Expired
					err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
						var err error
						out, err = storage.ExpireDue(ctx, tx, s, at, 1000)
						return err
					})
					errs <- err
					got <- out
				}()
			}
			seen := map[string]int{}
			for w := 0; w < 4; w++ {
				if err := <-errs; err != nil {
					t.Fatal(err)
				}
				for _, e := range <-got {
					key := "m " + e.User
					switch {
					case e.IsGrant():
						key = "g " + e.Permission
					case e.Scope != "":
						key = "s " + e.User
					}
					seen[key]++
					if !e.ExpiresAt.After(start) || e.ExpiresAt.After(at) {
						t.Fatalf("%s expired at %v", key, e.ExpiresAt)
					}
				}
			}
			if len(seen) != len(want) {
				t.Fatalf("%d rows removed, want %d", len(seen), len(want))
			}
			for k, n := range seen {
				if n != 1 || !want[k] {
					t.Fatalf("%s removed %d times (expected: %v)", k, n, want[k])
				}
			}
			ms, err := storage.Names(ctx, db, s, storage.MembersOfRole, "editor")
			if err != nil || len(ms) != 20 {
				t.Fatalf("members left: %v, %v; want the 20 not expired", ms, err)
			}
		}
	})
}

func put(_ storage.Put, err error) error { return err }
