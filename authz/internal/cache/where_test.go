package cache

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// whereIs asserts the cache's where answer for (user, perm).
func whereIs(t *testing.T, c *Cache, user, perm string, global bool, scopes ...string) {
	t.Helper()
	g, s, err := c.Where(bg, user, perm)
	if err != nil || g != global || !slices.Equal(s, scopes) {
		t.Fatalf("Where(%s, %s) = %v %q, %v; want %v %q", user, perm, g, s, err, global, scopes)
	}
}

func TestWhereFollowsScopesAndInheritance(t *testing.T) {
	s := newFakeStore()
	c := newTestCache(s)
	s.grant("viewer", "read", true)
	s.grant("editor", "edit", true)
	s.inherit("editor", "viewer")
	s.scopedMember("alice", "org-2", "editor", true)
	s.scopedMember("alice", "org-1", "viewer", true)
	s.scopedMember("alice", "org-3", "viewer", true)
	s.scopedMember("alice", "org-3", "editor", true)
	whereIs(t, c, "alice", "read", false, "org-1", "org-2", "org-3")
	whereIs(t, c, "alice", "edit", false, "org-2", "org-3")
	whereIs(t, c, "alice", "delete", false)
	whereIs(t, c, "nobody", "read", false)

	// A global role: global, and the scoped ones still listed.
	s.member("alice", "viewer", true)
	c.InvalidateUser("alice")
	whereIs(t, c, "alice", "read", true, "org-1", "org-2", "org-3")

	// A grant seen by the next answer, through inheritance.
	s.grant("viewer", "comment", true)
	c.InvalidateRole("viewer")
	whereIs(t, c, "alice", "comment", true, "org-1", "org-2", "org-3")
	s.member("alice", "viewer", false)
	c.InvalidateUser("alice")
	whereIs(t, c, "alice", "comment", false, "org-1", "org-2", "org-3")
	s.grant("viewer", "comment", false)
	c.InvalidateRole("viewer")
	whereIs(t, c, "alice", "comment", false)

}

// TestWhereAgreesWithAllowed: after random changes, each invalidated as
// authz does, the where answer of every (user, permission) says exactly
// what Allowed says in every scope, warm or cold, with many scoped roles
// (past the head-by-head merge) and few.
func TestWhereAgreesWithAllowed(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := newFakeStore()
	c := newTestCache(s)
	const users, roles, perms, scopes = 6, 14, 8, 12
	role := func() string { return fmt.Sprintf("r%d", rng.IntN(roles)) }
	user := func() string { return fmt.Sprintf("u%d", rng.IntN(users)) }
	scope := func() string { return fmt.Sprintf("s%02d", rng.IntN(scopes)) }
	for r := range roles {
		if r > 0 && rng.IntN(3) == 0 {
			s.inherit(fmt.Sprintf("r%d", r), fmt.Sprintf("r%d", rng.IntN(r)))
		}
	}
	for step := range 3000 {
		switch rng.IntN(4) {
		case 0:
			r := role()
			s.grant(r, fmt.Sprintf("p%d", rng.IntN(perms)), rng.IntN(3) > 0)
			c.InvalidateRole(r)
		case 1:
			u := user()
			s.member(u, role(), rng.IntN(4) == 0)
			c.InvalidateUser(u)
		default:
			u := user()
			s.scopedMember(u, scope(), role(), rng.IntN(3) > 0)
			c.InvalidateUser(u)
		}
		if step%10 != 0 {
			continue
		}
		for u := range users {
			for p := range perms {
				un, pn := fmt.Sprintf("u%d", u), fmt.Sprintf("p%d", p)
				global, in, err := c.Where(bg, un, pn)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.IsSorted(in) || len(slices.Compact(slices.Clone(in))) != len(in) {
					t.Fatalf("step %d: scopes of %s/%s not sorted and distinct: %q", step, un, pn, in)
				}
				if ok, _ := c.Allowed(bg, un, "", pn); ok != global {
					t.Fatalf("step %d: %s/%s global %v, Allowed %v", step, un, pn, global, ok)
				}
				for sc := range scopes {
					sn := fmt.Sprintf("s%02d", sc)
					ok, _ := c.Allowed(bg, un, sn, pn)
					if want := global || slices.Contains(in, sn); ok != want {
						t.Fatalf("step %d: %s/%s in %s: where says %v (%v %q), Allowed %v", step, un, pn, sn, want, global, in, ok)
					}
				}
			}
		}
	}
}

// TestWarmWhereAllocatesNothing: a warm answer is the entry's own sorted
// list, or a merge the entry remembered, whatever the number of scopes;
// the merge is counted in the budget and given back with the entry.
func TestWarmWhereAllocatesNothing(t *testing.T) {
	s := newFakeStore()
	c := newTestCache(s)
	s.grant("editor", "edit", true)
	s.grant("lead", "edit", true)
	s.grant("lead", "approve", true)
	for i := range 1000 {
		s.scopedMember("alice", fmt.Sprintf("org-%04d", i), "editor", true)
		if i%3 == 0 {
			s.scopedMember("alice", fmt.Sprintf("org-%04d", i), "lead", true)
		}
	}
	whereIs(t, c, "alice", "none", false)
	before := c.Bytes()
	if _, got, _ := c.CachedWhere("alice", "edit"); len(got) != 1000 {
		t.Fatalf("%d scopes, want 1000", len(got))
	}
	if grew := c.Bytes() - before; grew < 16*1000 {
		t.Fatalf("the remembered merge of 1,000 scopes counts %d bytes", grew)
	}
	for _, perm := range []string{"edit", "approve", "none"} {
		if n := testing.AllocsPerRun(100, func() { _, _, _ = c.CachedWhere("alice", perm) }); n != 0 {
			t.Errorf("warm where of %s: %v allocations, want 0", perm, n)
		}
	}
	u, _ := c.users.Load("alice")
	held := c.Bytes()
	c.InvalidateUser("alice")
	if c.Bytes() != held-u.size() || u.size() < u.bytes+16*1000 {
		t.Fatalf("the user's entry (%d bytes, %d with its merge) left %d of %d bytes", u.bytes, u.size(), c.Bytes(), held)
	}
	// Past maxWhereMemo permissions, answers are merged each time and
	// still right.
	for p := range maxWhereMemo + 3 {
		perm := fmt.Sprintf("p%d", p)
		s.grant("editor", perm, true)
		s.grant("lead", perm, true)
	}
	c.InvalidateRole("editor")
	c.InvalidateRole("lead")
	for range 2 {
		for p := range maxWhereMemo + 3 {
			if _, got, _ := c.Where(bg, "alice", fmt.Sprintf("p%d", p)); len(got) != 1000 {
				t.Fatalf("p%d: %d scopes, want 1000", p, len(got))
			}
		}
	}
}

// BenchmarkWhere is the warm where of a user with 1,000 scoped
// memberships: in one role granting the permission, in two (merged once,
// then remembered), and in neither.
func BenchmarkWhere(b *testing.B) {
	s := newFakeStore()
	c := New(s, NewBudget(1_000, 1<<40), nil)
	s.grant("editor", "edit", true)
	s.grant("lead", "edit", true)
	s.grant("lead", "approve", true)
	for i := range 1000 {
		org := fmt.Sprintf("org-%04d", i)
		if i%2 == 0 {
			s.scopedMember("alice", org, "editor", true)
		} else {
			s.scopedMember("alice", org, "lead", true)
		}
	}
	for _, bc := range []struct {
		name, perm string
		n          int
	}{{"one-role", "approve", 500}, {"two-roles", "edit", 1000}, {"none", "delete", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			if _, got, err := c.Where(bg, "alice", bc.perm); err != nil || len(got) != bc.n {
				b.Fatalf("%d scopes, %v", len(got), err)
			}
			b.ReportAllocs()
			cpuLoop(b, func() {
				if _, _, warm := c.CachedWhere("alice", bc.perm); !warm {
					b.Fatal("cold")
				}
			})
		})
	}
}

// TestMergeScopes: head by head (up to maxMergeHeads lists) and by
// sorting (more), each scope once, sorted.
func TestMergeScopes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 500 {
		lists := make([][]string, 2+rng.IntN(2*maxMergeHeads))
		want := map[string]bool{}
		for i := range lists {
			for range rng.IntN(20) {
				s := fmt.Sprintf("s%03d", rng.IntN(60))
				if !slices.Contains(lists[i], s) {
					lists[i] = append(lists[i], s)
					want[s] = true
				}
			}
			slices.Sort(lists[i])
		}
		got := mergeScopes(lists)
		if !slices.IsSorted(got) || len(got) != len(want) {
			t.Fatalf("round %d: merged %q from %q", round, got, lists)
		}
		for _, s := range got {
			if !want[s] {
				t.Fatalf("round %d: %s not in any list", round, s)
			}
		}
	}
}
