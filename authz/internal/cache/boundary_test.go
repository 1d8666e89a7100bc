package cache

import (
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz/internal/clock"
)

var t0 = time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)

// warmIs asserts the warm path's answer: the entry is cached and says want.
func warmIs(t *testing.T, c *Cache, user, scope, perm string, want bool) {
	t.Helper()
	got, warm := c.Cached(user, scope, perm)
	if !warm || got != want {
		t.Fatalf("Cached(%s, %q, %s) = %v, warm %v; want %v, warm", user, scope, perm, got, warm, want)
	}
}

// A membership, a scoped membership and a grant with bounds are counted
// in their window only, with no write and no invalidation: the cache
// wakes at each boundary, and the next check reads the store again. The
// checks in between are warm.
func TestBoundariesPassWithNoWrite(t *testing.T) {
	for _, tc := range []struct {
		name  string
		scope string
		set   func(s *fakeStore, from, until time.Time)
	}{
		{"membership", "", func(s *fakeStore, from, until time.Time) { s.bound(from, until, "sara", "editor") }},
		{"scoped membership", "org-1", func(s *fakeStore, from, until time.Time) { s.bound(from, until, "sara", "org-1", "editor") }},
		// The grant is to the role editor inherits: the boundary reaches
		// editor's set through inheritance.
		{"inherited grant", "", func(s *fakeStore, from, until time.Time) { s.bound(from, until, "grant", "writer", "edit") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, starts := range []bool{false, true} {
				s := newFakeStore()
				clk := clock.NewFake(t0)
				c := New(s, NewBudget(1000, 1<<40), clk)
				s.grant("writer", "edit", true)
				s.grant("editor", "read", true)
				s.inherit("editor", "writer")
				if tc.scope == "" {
					s.member("sara", "editor", true)
				} else {
					s.scopedMember("sara", tc.scope, "editor", true)
				}
				// Ends at +1h, or starts at +1h.
				before, after := true, false
				if starts {
					tc.set(s, t0.Add(time.Hour), time.Time{})
					before, after = false, true
				} else {
					tc.set(s, time.Time{}, t0.Add(time.Hour))
				}
				allowedIs(t, c, "sara", tc.scope, "edit", before)
				allowedIs(t, c, "sara", tc.scope, "read", tc.name == "inherited grant" || !starts)
				reads := s.userReads.Load() + s.roleLoads.Load()
				clk.Advance(59 * time.Minute)
				warmIs(t, c, "sara", tc.scope, "edit", before)
				if n := s.userReads.Load() + s.roleLoads.Load(); n != reads {
					t.Fatalf("%d reads of the store before the boundary; want none", n-reads)
				}
				clk.Advance(time.Minute)
				if _, warm := c.Cached("sara", tc.scope, "edit"); warm {
					t.Fatal("the entry still answers past its boundary")
				}
				allowedIs(t, c, "sara", tc.scope, "edit", after)
				warmIs(t, c, "sara", tc.scope, "edit", after)
				if n := c.Boundaries(); n != 0 {
					t.Fatalf("%d boundaries left after the last one passed", n)
				}
			}
		})
	}
}

// A build that read the store before a boundary and publishes after it
// answers its own check only: the next check reads again.
func TestBuildOvertakenByItsBoundary(t *testing.T) {
	s := newFakeStore()
	clk := clock.NewFake(t0)
	c := New(s, NewBudget(1000, 1<<40), clk)
	s.grant("editor", "edit", true)
	s.member("sara", "editor", true)
	s.bound(time.Time{}, t0.Add(time.Minute), "sara", "editor")
	s.afterRead = func(kind, _ string) {
		if kind == "user" {
			s.afterRead = nil
			clk.Advance(time.Minute) // the boundary comes while the build runs
		}
	}
	allowedIs(t, c, "sara", "", "edit", true) // as read
	if c.Len() != 0 {
		t.Fatal("an entry past its boundary was published")
	}
	allowedIs(t, c, "sara", "", "edit", false)
}

// Entries that leave the cache otherwise (invalidated again and again)
// do not pile their boundaries up.
func TestBoundariesStayInProportion(t *testing.T) {
	s := newFakeStore()
	clk := clock.NewFake(t0)
	c := New(s, NewBudget(1000, 1<<40), clk)
	s.grant("editor", "edit", true)
	s.member("sara", "editor", true)
	s.bound(time.Time{}, t0.Add(24*time.Hour), "sara", "editor")
	for i := 0; i < 10_000; i++ {
		allowedIs(t, c, "sara", "", "edit", true)
		c.InvalidateUser("sara")
	}
	if n := c.Boundaries(); n > 200 {
		t.Fatalf("%d boundaries kept for one user entry", n)
	}
	clk.Advance(24 * time.Hour)
	allowedIs(t, c, "sara", "", "edit", false)
}

// The warm check allocates nothing with bounded entries in the cache.
func TestWarmCheckWithBoundsAllocatesNothing(t *testing.T) {
	s := newFakeStore()
	c := New(s, NewBudget(1000, 1<<40), clock.NewFake(t0))
	s.grant("editor", "edit", true)
	s.member("sara", "editor", true)
	s.bound(time.Time{}, t0.Add(time.Hour), "sara", "editor")
	s.bound(t0.Add(-time.Hour), t0.Add(2*time.Hour), "grant", "editor", "edit")
	allowedIs(t, c, "sara", "", "edit", true)
	if n := testing.AllocsPerRun(1000, func() { c.Cached("sara", "", "edit") }); n != 0 {
		t.Fatalf("%v allocations per warm check", n)
	}
}
