package authz

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz/internal/clock"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestWhereCanAcrossReplicas: two Authz on one store, A writing. A's own
// where-can and batch answers follow each write at once; B's follow within
// the usual window (the listener on PostgreSQL, the revision check of 1 s
// on SQLite), and at once with the write's revision (AtLeast). Each round
// changes a scoped membership, a grant or an inheritance link.
func TestWhereCanAcrossReplicas(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		a, b := openTarget(t, target, nil), openTarget(t, target, nil)
		ca, cb := mustClient(t, a, key), mustClient(t, b, key)
		seed(t,
			func() (bool, error) { return ca.AddRole(ctx, "viewer", "") },
			func() (bool, error) { return ca.AddRole(ctx, "editor", "") },
			func() (bool, error) { return ca.AddPermission(ctx, "editor", "edit") },
			func() (bool, error) { return ca.AddMembershipIn(ctx, "org-base", "alice", "viewer") },
		)
		// Warm B's cache for alice, so that a change has something to make
		// stale.
		if _, err := cb.WhereCan(ctx, "alice", "edit"); err != nil {
			t.Fatal(err)
		}

		const rounds = 12
		var windows []time.Duration
		for r := range rounds {
			org := fmt.Sprintf("org-%02d", r)
			var want []string
			var err error
			switch r % 3 {
			case 0: // a scoped membership granting edit
				_, err = ca.AddMembershipIn(ctx, org, "alice", "editor")
			case 1: // a grant to the role alice holds in org-base
				_, err = ca.AddPermission(ctx, "viewer", "edit")
			case 2: // through inheritance instead
				_, err = ca.AddInheritance(ctx, "viewer", "editor")
			}
			if err != nil {
				t.Fatal(err)
			}
			written := time.Now()
			where := "org-base" // the scope where the round's change grants edit
			if r%3 == 0 {
				where = org
			}
			// What A answers now is the truth the store holds.
			wa, err := ca.WhereCan(ctx, "alice", "edit")
			if err != nil {
				t.Fatal(err)
			}
			want = wa.Scopes()
			if !slices.Equal(want, []string{where}) {
				t.Fatalf("round %d: A does not see its own write at once: %q", r, want)
			}
			if got, err := ca.CheckMany(ctx, []Check{{User: "alice", Permission: "edit", Scope: where}}); err != nil || !got[0] {
				t.Fatalf("round %d: A's batch answer %v, %v", r, got, err)
			}
			// B, within the window.
			for {
				wb, err := cb.WhereCan(ctx, "alice", "edit")
				if err != nil {
					t.Fatal(err)
				}
				if slices.Equal(wb.Scopes(), want) {
					break
				}
				if time.Since(written) > 5*time.Second {
					t.Fatalf("round %d: B still answers %q 5 s after the write, want %q", r, wb.Scopes(), want)
				}
				time.Sleep(time.Millisecond)
			}
			windows = append(windows, time.Since(written))
			if got, err := cb.CheckMany(ctx, []Check{{User: "alice", Permission: "edit", Scope: where}}); err != nil || !got[0] {
				t.Fatalf("round %d: B's batch answer %v, %v", r, got, err)
			}
			// Undo the round's change on A; B with the revision of the undo
			// answers from it at once.
			var undo Written
			switch r % 3 {
			case 0:
				undo, err = ca.Writes().DelMembershipIn(ctx, org, "alice", "editor")
			case 1:
				undo, err = ca.Writes().DelPermission(ctx, "viewer", "edit")
			case 2:
				undo, err = ca.Writes().DelInheritance(ctx, "viewer", "editor")
			}
			if err != nil || !undo.Changed {
				t.Fatalf("round %d: undo %+v, %v", r, undo, err)
			}
			if err := cb.AtLeast(ctx, undo.Revision); err != nil {
				t.Fatal(err)
			}
			wb, err := cb.WhereCan(ctx, "alice", "edit")
			if err != nil || !wb.Nowhere() {
				t.Fatalf("round %d: B at the undo's revision answers %v %q, %v; want nowhere", r, wb.Global(), wb.Scopes(), err)
			}
			if got, err := cb.CheckMany(ctx, []Check{{User: "alice", Permission: "edit", Scope: where}}); err != nil || got[0] {
				t.Fatalf("round %d: B's batch answer at the undo's revision %v, %v", r, got, err)
			}
		}
		slices.Sort(windows)
		t.Logf("%s: B answered a write of A after %v (median), %v (worst) over %d rounds",
			target.Name, windows[len(windows)/2].Round(time.Microsecond), windows[len(windows)-1].Round(time.Microsecond), rounds)
	})
}

// TestWhereCanKeepsTime: where-can reads the entries the check reads, so
// time bounds hold for both with no write: a scoped membership that ends
// leaves the list at its expires_at, one that starts joins it at its
// starts_at, warm on each side, and the filter and the batch follow.
func TestWhereCanKeepsTime(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		clk := clock.NewFake(boundsT0)
		az := openClocked(t, target, clk, nil)
		c := mustClient(t, az, newKey())
		at := boundsT0.Add(2 * time.Hour)
		seed(t,
			func() (bool, error) { return c.AddRole(ctx, "editor", "") },
			func() (bool, error) { return c.AddPermission(ctx, "editor", "edit") },
			func() (bool, error) { return c.AddMembershipIn(ctx, "org-1", "alice", "editor") },
			func() (bool, error) { return c.AddMembershipIn(ctx, "org-2", "alice", "editor", ExpiresAt(at)) },
			func() (bool, error) { return c.AddMembershipIn(ctx, "org-3", "alice", "editor", StartsAt(at)) },
		)
		hostOrgs(t, az, []string{"org-1", "org-2", "org-3"})
		rev, err := c.Revision(ctx)
		if err != nil {
			t.Fatal(err)
		}
		is := func(when string, want ...string) {
			t.Helper()
			w, err := c.WhereCan(ctx, "alice", "edit")
			if err != nil || w.Global() || !slices.Equal(w.Scopes(), want) {
				t.Fatalf("%s: where-can %q, %v; want %q", when, w.Scopes(), err, want)
			}
			if _, scopes, warm := c.cache.CachedWhere("alice", "edit"); !warm || !slices.Equal(scopes, want) {
				t.Fatalf("%s: the cache answers %q (warm %v); want a warm %q", when, scopes, warm, want)
			}
			if rows, _ := filtered(t, az, w); !slices.Equal(rows, want) {
				t.Fatalf("%s: the filter keeps %q; want %q", when, rows, want)
			}
			got, err := c.CheckMany(ctx, []Check{
				{User: "alice", Permission: "edit", Scope: "org-1"},
				{User: "alice", Permission: "edit", Scope: "org-2"},
				{User: "alice", Permission: "edit", Scope: "org-3"},
			})
			if err != nil || !slices.Equal(got, []bool{slices.Contains(want, "org-1"), slices.Contains(want, "org-2"), slices.Contains(want, "org-3")}) {
				t.Fatalf("%s: the batch answers %v, %v", when, got, err)
			}
		}
		is("an hour before", "org-1", "org-2")
		clk.Advance(time.Hour + 59*time.Minute + 59*time.Second)
		is("a second before", "org-1", "org-2")
		clk.Advance(time.Second)
		is("at the boundary", "org-1", "org-3")
		clk.Advance(time.Hour)
		is("an hour after", "org-1", "org-3")
		if now, err := c.Revision(ctx); err != nil || now != rev {
			t.Fatalf("the revision moved from %s to %s (%v): something was written", rev, now, err)
		}
	})
}
