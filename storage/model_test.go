package storage_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// Inheritance and scoped memberships at the storage level, on both
// databases: effective answers, cycles refused, deep chains, cascades.
func TestInheritanceAndScopes(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := storage.Scope{NS: storage.NamespaceOf("k1")}
		must := func(ok bool, err error) bool {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		tx := func(fn func(bun.IDB) (bool, error)) (bool, error) {
			var ok bool
			err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) (err error) {
				ok, err = fn(tx)
				return err
			})
			return ok, err
		}
		inherit := func(role, parent string) (bool, error) {
			return tx(func(db bun.IDB) (bool, error) { return storage.AddInheritance(ctx, db, s, role, parent) })
		}
		for _, r := range []string{"viewer", "editor", "admin", "other"} {
			must(storage.AddRole(ctx, db, s, r, ""))
		}
		must(storage.AddPermission(ctx, db, s, "viewer", "read"))
		must(storage.AddPermission(ctx, db, s, "editor", "edit"))
		must(storage.AddPermission(ctx, db, s, "admin", "manage"))
		if !must(inherit("editor", "viewer")) || must(inherit("editor", "viewer")) {
			t.Fatal("created twice / not at all")
		}
		must(inherit("admin", "editor"))
		for _, c := range [][2]string{{"viewer", "admin"}, {"viewer", "editor"}, {"admin", "admin"}} {
			if _, err := inherit(c[0], c[1]); !errors.Is(err, storage.ErrCycle) {
				t.Fatalf("%v: %v, want ErrCycle", c, err)
			}
		}
		if _, err := inherit("ghost", "viewer"); !errors.Is(err, storage.ErrRoleNotFound) {
			t.Fatalf("missing role: %v", err)
		}
		if _, err := inherit("viewer", "ghost"); !errors.Is(err, storage.ErrRoleNotFound) {
			t.Fatalf("missing parent: %v", err)
		}
		must(storage.AddMembership(ctx, db, s, "", "sara", "admin"))
		roles, perms, err := storage.UserGrants(ctx, db, s, "", "sara")
		if err != nil || !slices.Equal(roles, []string{"admin"}) || !slices.Equal(perms, []string{"edit", "manage", "read"}) {
			t.Fatalf("grants = %v %v %v", roles, perms, err)
		}
		got, err := storage.WhichRolesCan(ctx, db, s, "read")
		if err != nil || !slices.Equal(got, []string{"admin", "editor", "viewer"}) {
			t.Fatalf("which roles = %v %v", got, err)
		}
		got, err = storage.WhichUsersCan(ctx, db, s, "read")
		if err != nil || !slices.Equal(got, []string{"sara"}) {
			t.Fatalf("which users = %v %v", got, err)
		}
		got, err = storage.RoleEffectivePermissions(ctx, db, s, "editor")
		if err != nil || !slices.Equal(got, []string{"edit", "read"}) {
			t.Fatalf("effective = %v %v", got, err)
		}
		got, err = storage.RoleParents(ctx, db, s, "admin")
		if err != nil || !slices.Equal(got, []string{"editor"}) {
			t.Fatalf("parents = %v %v", got, err)
		}

		// Scoped: alice is an editor in org-42 only.
		must(storage.AddMembership(ctx, db, s, "org-42", "alice", "editor"))
		must(storage.AddMembership(ctx, db, s, "", "alice", "other"))
		if _, p, _ := storage.UserGrants(ctx, db, s, "", "alice"); len(p) != 0 {
			t.Fatalf("global perms of alice = %v", p)
		}
		if r, p, _ := storage.UserGrants(ctx, db, s, "org-42", "alice"); !slices.Equal(r, []string{"editor"}) || !slices.Equal(p, []string{"edit", "read"}) {
			t.Fatalf("org-42 grants of alice = %v %v", r, p)
		}
		if r, p, _ := storage.UserGrants(ctx, db, s, "org-7", "alice"); len(r)+len(p) != 0 {
			t.Fatalf("org-7 grants of alice = %v %v", r, p)
		}
		m, err := storage.UserRolesIn(ctx, db, s, "org-42", "alice")
		if err != nil || !slices.Equal(m, []storage.Member{{Name: "editor", Scope: "org-42"}, {Name: "other"}}) {
			t.Fatalf("roles in = %v %v", m, err)
		}
		m, err = storage.WhichUsersCanIn(ctx, db, s, "org-42", "read")
		if err != nil || !slices.Equal(m, []storage.Member{{Name: "alice", Scope: "org-42"}, {Name: "sara"}}) {
			t.Fatalf("which users in = %v %v", m, err)
		}
		if !must(storage.HasMembership(ctx, db, s, "org-42", "alice", "editor")) ||
			must(storage.HasMembership(ctx, db, s, "org-7", "alice", "editor")) ||
			!must(storage.HasMembership(ctx, db, s, "org-7", "alice", "other")) {
			t.Fatal("HasMembership in a scope")
		}

		// Deleting a role removes its links both ways and its scoped members.
		must(storage.DeleteRole(ctx, db, s, "editor"))
		must(storage.AddRole(ctx, db, s, "editor", ""))
		if got, _ := storage.RoleParents(ctx, db, s, "editor"); len(got) != 0 {
			t.Fatalf("parents came back: %v", got)
		}
		if got, _ := storage.RoleParents(ctx, db, s, "admin"); len(got) != 0 {
			t.Fatalf("child link left: %v", got)
		}
		if r, _, _ := storage.UserGrants(ctx, db, s, "org-42", "alice"); len(r) != 0 {
			t.Fatalf("scoped membership left: %v", r)
		}

		// A chain 40 deep.
		const depth = 40
		for i := 0; i <= depth; i++ {
			must(storage.AddRole(ctx, db, s, fmt.Sprint("c", i), ""))
			if i > 0 {
				must(inherit(fmt.Sprint("c", i), fmt.Sprint("c", i-1)))
			}
		}
		must(storage.AddPermission(ctx, db, s, "c0", "deep"))
		must(storage.AddMembership(ctx, db, s, "", "bob", fmt.Sprint("c", depth)))
		if _, p, _ := storage.UserGrants(ctx, db, s, "", "bob"); !slices.Equal(p, []string{"deep"}) {
			t.Fatalf("deep chain perms = %v", p)
		}
		if _, err := inherit("c0", fmt.Sprint("c", depth)); !errors.Is(err, storage.ErrCycle) {
			t.Fatalf("deep cycle: %v", err)
		}
	})
}
