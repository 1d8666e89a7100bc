package authz

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// Scope names chosen by strangers (a scope from a URL) cannot grow the
// cache: a user's entry holds only the scopes the user has memberships in,
// read with the user, so checks in a thousand other scopes add nothing and
// stay warm; and a warm scoped check allocates nothing. On both databases.
func TestScopesFromURLsAddNothing(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		az := openTarget(t, target, nil)
		c := mustClient(t, az, newKey())
		for _, f := range []func() (bool, error){
			func() (bool, error) { return c.AddRole(ctx, "viewer", "") },
			func() (bool, error) { return c.AddRole(ctx, "editor", "") },
			func() (bool, error) { return c.AddPermission(ctx, "viewer", "read") },
			func() (bool, error) { return c.AddInheritance(ctx, "editor", "viewer") },
			func() (bool, error) { return c.AddMembershipIn(ctx, "org-42", "alice", "editor") },
		} {
			if _, err := f(); err != nil {
				t.Fatal(err)
			}
		}
		if ok, err := c.UserHasPermissionIn(ctx, "org-42", "alice", "read"); err != nil || !ok {
			t.Fatalf("alice in org-42: %v %v, want true", ok, err)
		}
		users, roles := c.cache.Len(), c.cache.Roles()
		for i := range 1000 {
			scope := fmt.Sprintf("org-%d", 1000+i)
			if ok, err := c.UserHasPermissionIn(ctx, scope, "alice", "read"); err != nil || ok {
				t.Fatalf("alice in %s: %v %v, want false", scope, ok, err)
			}
			if _, warm := c.cache.Cached("alice", scope, "read"); !warm {
				t.Fatalf("check in %s not answered from the cache", scope)
			}
		}
		if u, r := c.cache.Len(), c.cache.Roles(); u != users || r != roles {
			t.Fatalf("after checks in 1000 scopes: %d users, %d role sets cached; was %d, %d", u, r, users, roles)
		}
		for _, scope := range []string{"org-42", "org-7"} {
			if n := testing.AllocsPerRun(1000, func() {
				_, _ = c.UserHasPermissionIn(ctx, scope, "alice", "read")
			}); n != 0 {
				t.Fatalf("warm check in %s allocates %v times", scope, n)
			}
		}
	})
}

// Checks in a scope racing scoped membership changes: once a revoke has
// returned, no check started after it answers true, and once a grant has
// returned none answers false. Checkers hammer the same user meanwhile, so
// builds race the invalidations. On both databases.
func TestScopedChecksFollowMembershipChanges(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		az := openTarget(t, target, nil)
		c := mustClient(t, az, newKey())
		for _, f := range []func() (bool, error){
			func() (bool, error) { return c.AddRole(ctx, "viewer", "") },
			func() (bool, error) { return c.AddRole(ctx, "editor", "") },
			func() (bool, error) { return c.AddPermission(ctx, "viewer", "read") },
			func() (bool, error) { return c.AddInheritance(ctx, "editor", "viewer") },
		} {
			if _, err := f(); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for range 2 {
			repeatUntil(stop, &wg, func() bool {
				_, err := c.UserHasPermissionIn(ctx, "org-42", "alice", "read")
				if err != nil {
					t.Error(err)
				}
				return err == nil
			})
		}
		for i := range 30 {
			if _, err := c.AddMembershipIn(ctx, "org-42", "alice", "editor"); err != nil {
				t.Fatal(err)
			}
			ok, err := c.UserHasPermissionIn(ctx, "org-42", "alice", "read")
			assertBool(t, "after grant", ok, err, true)
			if _, err := c.DelMembershipIn(ctx, "org-42", "alice", "editor"); err != nil {
				t.Fatal(err)
			}
			ok, err = c.UserHasPermissionIn(ctx, "org-42", "alice", "read")
			if err != nil || ok {
				t.Fatalf("round %d: after the revoke returned: %v, %v", i, ok, err)
			}
		}
		close(stop)
		wg.Wait()
	})
}
