package authz

import (
	"context"
	"sync"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// A scope part read before a membership change is never published after
// it, and a user's invalidation drops the user's scope parts with it.
func TestScopePartRacesInvalidation(t *testing.T) {
	cc := newClientCache(8)
	e := cc.store("u", cc.ticket(), nil, nil)
	tk := cc.ticket()
	cc.invalidateUser("other") // any membership change since the ticket
	cc.storeScope(e, "s", tk, []string{"r"}, []string{"p"})
	if cc.lookupScope(e, "s") != nil {
		t.Fatal("a scope part read before a membership change was cached after it")
	}
	e = cc.store("u", cc.ticket(), nil, nil)
	cc.storeScope(e, "s", cc.ticket(), []string{"r"}, []string{"p"})
	if cc.lookupScope(e, "s") == nil {
		t.Fatal("scope part not cached")
	}
	cc.invalidateAll()
	if cc.lookupScope(e, "s") != nil {
		t.Fatal("scope part survived a generation bump")
	}
	// The number of scopes cached per user stays bounded.
	e = cc.store("u", cc.ticket(), nil, nil)
	for i := range 3 * maxScopesPerUser {
		cc.storeScope(e, string(rune('a'+i)), cc.ticket(), nil, nil)
	}
	if n := len(*e.scopes.Load()); n > maxScopesPerUser {
		t.Fatalf("%d scopes cached for one user", n)
	}
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
