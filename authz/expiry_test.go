package authz

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz/internal/clock"
	"github.com/rolegate/rolegate/authz/internal/feed"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// Two replicas on one store sweep expired rows at once: every expired
// membership (global and scoped) and grant is removed, with exactly one
// audit record each, under expire_membership or expire_permission, and a
// revision each in the change log; the unexpired rows stay. On both
// stores.
func TestExpiryRecordedOnceWithTwoReplicas(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		clk := clock.NewFake(boundsT0)
		fast := func(c *Config) { c.expiryEvery = 10 * time.Millisecond }
		a := openClocked(t, target, clk, fast)
		b := openClocked(t, target, clk, fast)
		key := newKey()
		ca, cb := mustClient(t, a, key), mustClient(t, b, key)
		mustDo(t)(ca.AddRole(ctx, "editor", ""))
		until := ExpiresAt(boundsT0.Add(time.Hour))
		const users, grants = 40, 20
		for i := 0; i < users; i++ {
			mustDo(t)(ca.AddMembership(ctx, fmt.Sprintf("u%02d", i), "editor", until))
			mustDo(t)(ca.AddMembershipIn(ctx, "org-1", fmt.Sprintf("u%02d", i), "editor", until))
		}
		for i := 0; i < grants; i++ {
			mustDo(t)(ca.AddPermission(ctx, "editor", fmt.Sprintf("p%02d", i), until))
		}
		mustDo(t)(ca.AddMembership(ctx, "stays", "editor"))
		mustDo(t)(ca.AddPermission(ctx, "editor", "stays"))
		// Both caches hold the rows, to see them go.
		for _, c := range []*Client{ca, cb} {
			if ok, err := c.UserHasPermission(ctx, "u00", "p00"); !ok || err != nil {
				t.Fatalf("before the expiry: %v, %v", ok, err)
			}
		}
		revBefore, err := storage.Revision(ctx, a.db, ca.scope.NS)
		if err != nil {
			t.Fatal(err)
		}
		clk.Advance(2 * time.Hour)
		eventually(t, 20*time.Second, "every expired row removed", func() bool {
			var n int
			err := a.db.NewRaw(`SELECT (SELECT count(*) FROM rolegate_memberships WHERE ns = ?)
				+ (SELECT count(*) FROM rolegate_scoped_memberships WHERE ns = ?)
				+ (SELECT count(*) FROM rolegate_permissions WHERE ns = ?)`, ca.scope.NS, ca.scope.NS, ca.scope.NS).Scan(ctx, &n)
			return err == nil && n == 2 // the unbounded membership and grant
		})
		// A few more sweeps of both replicas find nothing more to record.
		time.Sleep(100 * time.Millisecond)
		count := func(action string) map[string]int {
			recs, err := ca.AuditRecords(ctx, action, 0, 1000)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]int{}
			for _, r := range recs {
				if r.Outcome != storage.AuditDeleted {
					t.Fatalf("%s recorded with outcome %q", action, r.Outcome)
				}
				seen[r.Resource]++
			}
			return seen
		}
		members, perms := count("expire_membership"), count("expire_permission")
		if len(members) != 2*users || len(perms) != grants {
			t.Fatalf("%d memberships and %d grants recorded as expired; want %d and %d", len(members), len(perms), 2*users, grants)
		}
		for r, n := range members {
			if n != 1 {
				t.Fatalf("%s recorded %d times", r, n)
			}
		}
		for r, n := range perms {
			if n != 1 {
				t.Fatalf("%s recorded %d times", r, n)
			}
		}
		if perms["permission:editor/p07"] != 1 || members["membership:u03/editor@org-1"] != 1 || members["membership:u03/editor"] != 1 {
			t.Fatalf("resources named unlike a revoke's: %v %v", members, perms)
		}
		revAfter, err := storage.Revision(ctx, a.db, ca.scope.NS)
		if err != nil || revAfter-revBefore != 2*users+grants {
			t.Fatalf("the revision moved by %d (%v); want one per removal, %d", revAfter-revBefore, err, 2*users+grants)
		}
		// The change feed has each removal once, by its audit action.
		feedOps := map[string]int{}
		for after := feed.Format(revBefore); ; {
			p, err := ca.Changes(ctx, after, MaxChangesLimit)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Changes) == 0 {
				break
			}
			for _, ch := range p.Changes {
				feedOps[ch.Op+" "+ch.User+"/"+ch.Role+ch.Permission+"@"+ch.Scope]++
			}
			after = p.Next
		}
		if len(feedOps) != 2*users+grants || feedOps["expire_membership u03/editor@org-1"] != 1 || feedOps["expire_permission /editorp07@"] != 1 {
			t.Fatalf("the feed holds %d distinct removals, want %d: %v", len(feedOps), 2*users+grants, feedOps)
		}
		for k, n := range feedOps {
			if n != 1 {
				t.Fatalf("the feed holds %s %d times", k, n)
			}
		}
		for _, c := range []*Client{ca, cb} {
			if ok, err := c.UserHasPermission(ctx, "u00", "p00"); ok || err != nil {
				t.Fatalf("after the expiry: %v, %v", ok, err)
			}
			if ok, err := c.UserHasPermission(ctx, "stays", "stays"); !ok || err != nil {
				t.Fatalf("an unbounded row: %v, %v", ok, err)
			}
		}
	})
}
