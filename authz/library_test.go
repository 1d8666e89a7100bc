package authz

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestLibraryOperations(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())

		created, err := c.AddRole(ctx, "cook", "Cooks")
		assertBool(t, "AddRole cook", created, err, true)
		created, err = c.AddRole(ctx, "cook", "changed")
		assertBool(t, "AddRole cook again", created, err, false)
		created, err = c.AddRole(ctx, "dancer", "")
		assertBool(t, "AddRole dancer", created, err, true)
		created, err = c.AddRole(ctx, "everyone", "All of us")
		assertBool(t, "AddRole everyone", created, err, true)

		roles, err := c.Roles(ctx)
		if err != nil || !slices.Equal(roles, []Role{{Role: "cook", Description: "Cooks"}, {Role: "dancer"}, {Role: "everyone", Description: "All of us"}}) {
			t.Fatalf("Roles = %#v, %v", roles, err)
		}

		for _, g := range [][2]string{{"cook", "cook"}, {"dancer", "dance"}, {"everyone", "laugh"}, {"cook", "laugh"}} {
			created, err = c.AddPermission(ctx, g[0], g[1])
			assertBool(t, "AddPermission "+g[0]+" "+g[1], created, err, true)
		}
		created, err = c.AddPermission(ctx, "cook", "cook")
		assertBool(t, "AddPermission again", created, err, false)
		for _, m := range [][2]string{{"sara", "cook"}, {"jack", "dancer"}, {"sara", "everyone"}, {"jack", "everyone"}} {
			created, err = c.AddMembership(ctx, m[0], m[1])
			assertBool(t, "AddMembership "+m[0]+" "+m[1], created, err, true)
		}
		created, err = c.AddMembership(ctx, "sara", "cook")
		assertBool(t, "AddMembership again", created, err, false)

		ok, err := c.HasMembership(ctx, "sara", "cook")
		assertBool(t, "HasMembership sara cook", ok, err, true)
		ok, err = c.HasMembership(ctx, "jack", "cook")
		assertBool(t, "HasMembership jack cook", ok, err, false)
		ok, err = c.HasPermission(ctx, "cook", "laugh")
		assertBool(t, "HasPermission cook laugh", ok, err, true)
		ok, err = c.HasPermission(ctx, "dancer", "cook")
		assertBool(t, "HasPermission dancer cook", ok, err, false)
		ok, err = c.UserHasPermission(ctx, "sara", "cook")
		assertBool(t, "UserHasPermission sara cook", ok, err, true)
		ok, err = c.UserHasPermission(ctx, "jack", "cook")
		assertBool(t, "UserHasPermission jack cook", ok, err, false)
		ok, err = c.UserHasPermission(ctx, "jack", "dance")
		assertBool(t, "UserHasPermission jack dance", ok, err, true)
		ok, err = c.UserHasRole(ctx, "jack", "dancer")
		assertBool(t, "UserHasRole jack dancer", ok, err, true)

		perms, err := c.GetUserPermissions(ctx, "sara")
		assertList(t, "GetUserPermissions sara (laugh twice, deduplicated)", perms, err, "cook", "laugh")
		urs, err := c.GetUserRoles(ctx, "jack")
		assertList(t, "GetUserRoles jack", urs, err, "dancer", "everyone")
		members, err := c.GetRoleMembers(ctx, "everyone")
		assertList(t, "GetRoleMembers everyone", members, err, "jack", "sara")
		rp, err := c.GetPermissions(ctx, "cook")
		assertList(t, "GetPermissions cook", rp, err, "cook", "laugh")
		who, err := c.WhichUsersCan(ctx, "laugh")
		assertList(t, "WhichUsersCan laugh", who, err, "jack", "sara")
		wr, err := c.WhichRolesCan(ctx, "laugh")
		assertList(t, "WhichRolesCan laugh", wr, err, "cook", "everyone")
		nobody, err := c.WhichUsersCan(ctx, "fly")
		assertList(t, "WhichUsersCan fly", nobody, err)
		none, err := c.GetUserRoles(ctx, "stranger")
		assertList(t, "GetUserRoles stranger", none, err)

		deleted, err := c.DelPermission(ctx, "cook", "laugh")
		assertBool(t, "DelPermission", deleted, err, true)
		deleted, err = c.DelPermission(ctx, "cook", "laugh")
		assertBool(t, "DelPermission absent", deleted, err, false)
		deleted, err = c.DelMembership(ctx, "jack", "dancer")
		assertBool(t, "DelMembership", deleted, err, true)
		deleted, err = c.DelMembership(ctx, "jack", "dancer")
		assertBool(t, "DelMembership absent", deleted, err, false)
		deleted, err = c.DelRole(ctx, "ghost")
		assertBool(t, "DelRole absent", deleted, err, false)

		if _, err := c.GetRoleMembers(ctx, "ghost"); !errors.Is(err, ErrRoleNotFound) {
			t.Fatalf("GetRoleMembers ghost: %v, want ErrRoleNotFound", err)
		}
		if _, err := c.GetPermissions(ctx, "ghost"); !errors.Is(err, ErrRoleNotFound) {
			t.Fatalf("GetPermissions ghost: %v, want ErrRoleNotFound", err)
		}
	})
}

func TestRoleDeletionCascades(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		c.AddRole(ctx, "editor", "")
		c.AddPermission(ctx, "editor", "edit")
		c.AddMembership(ctx, "sara", "editor")
		if ok, _ := c.UserHasPermission(ctx, "sara", "edit"); !ok {
			t.Fatal("sara should edit before the deletion")
		}
		if deleted, err := c.DelRole(ctx, "editor"); !deleted || err != nil {
			t.Fatalf("DelRole = %v, %v", deleted, err)
		}
		if n := countRows(t, az, c, "rolegate_permissions") + countRows(t, az, c, "rolegate_memberships"); n != 0 {
			t.Fatalf("%d grant or membership rows survived the role", n)
		}
		c.AddRole(ctx, "editor", "")
		if ok, _ := c.UserHasPermission(ctx, "sara", "edit"); ok {
			t.Fatal("re-created role brought back a permission")
		}
		if m, _ := c.GetRoleMembers(ctx, "editor"); len(m) != 0 {
			t.Fatalf("re-created role brought back members %v", m)
		}
		if p, _ := c.GetPermissions(ctx, "editor"); len(p) != 0 {
			t.Fatalf("re-created role brought back permissions %v", p)
		}
	})
}

func TestMissingRoleStoresNothing(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		if _, err := c.AddPermission(ctx, "ghost", "edit"); !errors.Is(err, ErrRoleNotFound) {
			t.Fatalf("AddPermission to missing role: %v", err)
		}
		if _, err := c.AddMembership(ctx, "sara", "ghost"); !errors.Is(err, ErrRoleNotFound) {
			t.Fatalf("AddMembership to missing role: %v", err)
		}
		for _, table := range []string{"rolegate_roles", "rolegate_permissions", "rolegate_memberships"} {
			if n := countRows(t, az, c, table); n != 0 {
				t.Fatalf("%s has %d rows after refused writes", table, n)
			}
		}
	})
}

func TestClientIsolation(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		a, b := mustClient(t, az, newKey()), mustClient(t, az, newKey())
		a.AddRole(ctx, "admin", "A's admins")
		a.AddPermission(ctx, "admin", "delete")
		a.AddMembership(ctx, "sara", "admin")

		if roles, _ := b.Roles(ctx); len(roles) != 0 {
			t.Fatalf("b sees a's roles: %v", roles)
		}
		if ok, _ := b.UserHasPermission(ctx, "sara", "delete"); ok {
			t.Fatal("b sees a's permission")
		}
		if _, err := b.AddPermission(ctx, "admin", "x"); !errors.Is(err, ErrRoleNotFound) {
			t.Fatalf("b granted to a's role: %v", err)
		}
		if u, _ := b.WhichUsersCan(ctx, "delete"); len(u) != 0 {
			t.Fatalf("b sees a's users: %v", u)
		}
		if deleted, _ := b.DelRole(ctx, "admin"); deleted {
			t.Fatal("b deleted a's role")
		}
		// b's own role of the same name is separate.
		b.AddRole(ctx, "admin", "B's admins")
		if roles, _ := a.Roles(ctx); len(roles) != 1 || roles[0].Description != "A's admins" {
			t.Fatalf("a's roles changed: %v", roles)
		}
		if ok, _ := a.UserHasPermission(ctx, "sara", "delete"); !ok {
			t.Fatal("a lost its grant")
		}
	})
}

func TestClientKeyCaseIsOneNamespace(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		key := newKey()
		lower, upper := mustClient(t, az, key), mustClient(t, az, strings.ToUpper(key))
		if lower != upper {
			t.Fatal("upper-case key gave another handle")
		}
		lower.AddRole(ctx, "r", "")
		roles, err := mustClient(t, az, strings.ToUpper(key)).Roles(ctx)
		if err != nil || len(roles) != 1 {
			t.Fatalf("upper-case key sees %v, %v", roles, err)
		}
	})
}

func TestConcurrentMembershipIsOneRow(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		c.AddRole(ctx, "r", "")
		var wg sync.WaitGroup
		var mu sync.Mutex
		created := 0
		for range 100 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := c.AddMembership(ctx, "sara", "r")
				if err != nil {
					t.Errorf("AddMembership: %v", err)
				}
				if ok {
					mu.Lock()
					created++
					mu.Unlock()
				}
				c.UserHasPermission(ctx, "sara", "p")
			}()
		}
		wg.Wait()
		if n := countRows(t, az, c, "rolegate_memberships"); n != 1 || created != 1 {
			t.Fatalf("%d rows, %d reported created; want exactly one", n, created)
		}
	})
}

func TestBadInputStoresNothing(t *testing.T) {
	bad := map[string]string{
		"empty":          "",
		"129 characters": strings.Repeat("é", 129),
		"NUL":            "a\x00b",
		"newline":        "a\nb",
		"slash":          "a/b",
		"leading space":  " a",
		"trailing space": "a ",
		"invalid UTF-8":  "a\xffb",
		"tab":            "a\tb",
		"DEL":            "a\x7fb",
	}
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		c.AddRole(ctx, "ok", "")
		for name, v := range bad {
			t.Run(name, func(t *testing.T) {
				ops := map[string]func() error{
					"AddRole":        func() error { _, err := c.AddRole(ctx, v, ""); return err },
					"AddPermission":  func() error { _, err := c.AddPermission(ctx, "ok", v); return err },
					"AddMembership":  func() error { _, err := c.AddMembership(ctx, v, "ok"); return err },
					"DelRole":        func() error { _, err := c.DelRole(ctx, v); return err },
					"HasPermission":  func() error { _, err := c.HasPermission(ctx, "ok", v); return err },
					"GetUserRoles":   func() error { _, err := c.GetUserRoles(ctx, v); return err },
					"WhichUsersCan":  func() error { _, err := c.WhichUsersCan(ctx, v); return err },
					"GetRoleMembers": func() error { _, err := c.GetRoleMembers(ctx, v); return err },
				}
				for op, f := range ops {
					if err := f(); !errors.Is(err, ErrInvalidName) {
						t.Errorf("%s(%q) = %v, want ErrInvalidName", op, v, err)
					}
				}
			})
		}
		if n := countRows(t, az, c, "rolegate_roles"); n != 1 {
			t.Fatalf("%d roles stored, want only the valid one", n)
		}
		if n := countRows(t, az, c, "rolegate_permissions") + countRows(t, az, c, "rolegate_memberships"); n != 0 {
			t.Fatalf("%d rows stored from bad input", n)
		}
		// 128 characters is the longest valid name.
		if created, err := c.AddRole(ctx, strings.Repeat("é", 128), ""); !created || err != nil {
			t.Fatalf("128-character name refused: %v", err)
		}
	})
}

func TestInvalidClientKeys(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		good := "3f0e2b1c-9a4d-4e8f-8b2a-1c3d5e7f9a0b"
		for name, key := range map[string]string{
			"v1":            "3f0e2b1c-9a4d-1e8f-8b2a-1c3d5e7f9a0b",
			"nil UUID":      "00000000-0000-0000-0000-000000000000",
			"no hyphens":    strings.ReplaceAll(good, "-", ""),
			"braces":        "{" + good + "}",
			"trailing junk": good + "x",
			"empty":         "",
			"urn":           "urn:uuid:" + good,
		} {
			if _, err := az.Client(key); !errors.Is(err, ErrInvalidClientKey) {
				t.Errorf("%s: Client(%q) = %v, want ErrInvalidClientKey", name, key, err)
			}
		}
		if _, err := az.Client(good); err != nil {
			t.Fatalf("valid key refused: %v", err)
		}
	})
}
