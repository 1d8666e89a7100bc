package cache

import (
	"fmt"
	"runtime"
	"testing"
)

func heapAlloc() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// longPerm is a permission name of 126 characters, as in the attack.
func longPerm(role string, i int) string { return fmt.Sprintf("%s%04d-%0120d", role, i, 0) }

// Memory by merged sets: role a with 3,000 permissions of 126 characters,
// role b with one, 3,497 users in both, one check each. A user's check
// looks in a's set where it is, shared, instead of in a copy of a's set
// merged with b's: the heap grows by a few MiB (it grew by about 380 MiB
// with a copy per user), and the budget counts about what the heap holds.
func TestLargeSetsAreNotCopiedPerUser(t *testing.T) {
	s := newFakeStore()
	for i := range 3000 {
		s.grant("a", longPerm("a", i), true)
	}
	s.grant("b", "b-only", true)
	const users = 3497
	for i := range users {
		s.member(fmt.Sprint("u", i), "a", true)
		s.member(fmt.Sprint("u", i), "b", true)
	}
	b := NewBudget(1_000_000, 1<<40)
	c := New(s, b, nil)
	before := heapAlloc()
	for i := range users {
		allowedIs(t, c, fmt.Sprint("u", i), "", "nope", false)
	}
	grew := heapAlloc() - before
	counted := b.UsedBytes()
	t.Logf("%d users in a (3,000 permissions) and b (1): heap %+.1f MiB, counted %.1f MiB",
		users, float64(grew)/(1<<20), float64(counted)/(1<<20))
	if grew > 16<<20 {
		t.Errorf("the heap grew by %.1f MiB; want at most 16", float64(grew)/(1<<20))
	}
	// Counted: the names of a's set (which the fake store shares with the
	// cache, so the heap does not see them) besides what the heap holds.
	if counted < grew/2 || counted > 2*grew+int64(3000*126) {
		t.Errorf("the budget counts %d bytes for a heap of %+d", counted, grew)
	}
	for _, u := range []string{"u0", "u1234", fmt.Sprint("u", users-1)} {
		allowedIs(t, c, u, "", longPerm("a", 2999), true)
		allowedIs(t, c, u, "", "b-only", true)
		allowedIs(t, c, u, "", "nope", false)
	}
	c.Close()
	if b.UsedBytes() != 0 {
		t.Fatalf("a closed cache leaves %d bytes counted", b.UsedBytes())
	}
}

// Every mix of large sets (more than mergeMax permissions, looked up where
// they are) and small ones (merged into the user's own map) answers as the
// union of its roles' sets, warm with no allocation, also after a grant
// moves a role from small to large.
func TestMixedSetsAnswerTheUnion(t *testing.T) {
	s := newFakeStore()
	sizes := map[string]int{"l1": 100, "l2": mergeMax + 1, "s1": mergeMax, "s2": 3, "s3": 1, "e": 0}
	for role, n := range sizes {
		s.grant(role, role+"-anchor", false) // the role exists, maybe empty
		for i := range n {
			s.grant(role, fmt.Sprintf("%s-%d", role, i), true)
		}
	}
	s.grant("s2", "shared", true)
	s.grant("l1", "shared", true)
	layouts := [][]string{
		{"l1"}, {"s1"}, {"e"}, {}, {"l1", "l2"}, {"s1", "s2"}, {"l1", "s3"}, {"l1", "s1", "s2"},
		{"l1", "l2", "s1", "s2", "s3", "e"}, {"e", "s3"}, {"l2", "s3", "s2"},
	}
	c := newTestCache(s)
	for i, roles := range layouts {
		u := fmt.Sprint("user", i)
		for _, r := range roles {
			s.member(u, r, true)
		}
		check := func() {
			t.Helper()
			held := map[string]bool{}
			for _, r := range roles {
				held[r] = true
			}
			for role, n := range sizes {
				for _, j := range []int{0, n - 1, n} {
					allowedIs(t, c, u, "", fmt.Sprintf("%s-%d", role, j), held[role] && j >= 0 && j < n)
				}
			}
			allowedIs(t, c, u, "", "shared", held["l1"] || held["s2"])
			allowedIs(t, c, u, "", "nope", false)
		}
		check()
		if n := testing.AllocsPerRun(100, func() {
			c.Allowed(bg, u, "", "nope")
			c.Allowed(bg, u, "", "shared")
		}); n != 0 {
			t.Fatalf("%v: the warm check allocates %v times", roles, n)
		}
		// A small set grows past mergeMax: the user's entry is rebuilt
		// with it looked up where it is.
		for j := range mergeMax + 1 {
			s.grant("s3", fmt.Sprintf("s3-%d", j), true)
		}
		sizes["s3"] = mergeMax + 1
		c.InvalidateRole("s3")
		check()
		for j := 1; j <= mergeMax; j++ {
			s.grant("s3", fmt.Sprintf("s3-%d", j), false)
		}
		sizes["s3"] = 1
		c.InvalidateRole("s3")
		check()
	}
}

// What an entry holds of its own is at most mergeMax names, whatever the
// layout: a user in a role of 3,000 permissions and one of 1 counts a few
// hundred bytes, not the 3,000 names; a user in 20 small roles and a large
// one merges what fits and looks in the rest where they are.
func TestUserOwnBytesAreBounded(t *testing.T) {
	s := newFakeStore()
	for i := range 3000 {
		s.grant("a", longPerm("a", i), true)
	}
	for i := range 20 {
		for j := range 16 {
			s.grant(fmt.Sprint("s", i), fmt.Sprintf("s%d-%d", i, j), true)
		}
	}
	c := newTestCache(s)
	s.member("one", "a", true)
	s.member("one", "s0", true)
	allowedIs(t, c, "one", "", "nope", false)
	u, _ := c.lookup("one")
	if u.bytes > 512 || u.small.n == 0 || !u.anyLarge || len(u.large) != 1 {
		t.Errorf("a user in a large role and a small one counts %d bytes of its own, looks in the small one first: %v, then in %d more sets",
			u.bytes, u.small.n > 0, len(u.large))
	}
	for i := range 20 {
		s.member("many", fmt.Sprint("s", i), true)
	}
	s.member("many", "a", true)
	for i := range 20 {
		allowedIs(t, c, "many", "", fmt.Sprintf("s%d-15", i), true)
	}
	allowedIs(t, c, "many", "", longPerm("a", 0), true)
	allowedIs(t, c, "many", "", "nope", false)
	u, _ = c.lookup("many")
	bound := int64(userBytes+len("many")) + 21*(refBytes+memberBytes) + 20*moreBytes + smallBytes(mergeMax)
	if u.bytes > bound || len(u.large) > 20 {
		t.Errorf("a user in 21 roles counts %d bytes of its own (at most %d), looks in %d more sets", u.bytes, bound, len(u.large))
	}
}

// Memory by inheritance: 600 roles each inheriting one role of 3,000
// permissions and granted one more, a user in each. Each role's set is
// big's set, shared, and its own: the heap grows by a few MiB (with a
// copy of the union per role, by about 65 MiB).
func TestInheritedSetsAreNotCopiedPerRole(t *testing.T) {
	s := newFakeStore()
	for i := range 3000 {
		s.grant("big", longPerm("big", i), true)
	}
	const roles = 600
	for i := range roles {
		f := fmt.Sprint("f", i)
		s.inherit(f, "big")
		s.grant(f, "g"+f, true)
		s.member("u"+f, f, true)
	}
	b := NewBudget(1_000_000, 1<<40)
	c := New(s, b, nil)
	before := heapAlloc()
	for i := range roles {
		allowedIs(t, c, fmt.Sprint("uf", i), "", "nope", false)
	}
	grew := heapAlloc() - before
	t.Logf("%d roles inheriting big (3,000 permissions), each granted one: heap %+.1f MiB, counted %.1f MiB",
		roles, float64(grew)/(1<<20), float64(b.UsedBytes())/(1<<20))
	if grew > 16<<20 {
		t.Errorf("the heap grew by %.1f MiB; want at most 16", float64(grew)/(1<<20))
	}
	allowedIs(t, c, "uf7", "", "gf7", true)
	allowedIs(t, c, "uf7", "", "gf8", false)
	allowedIs(t, c, "uf7", "", longPerm("big", 2999), true)
	// A grant to big reaches every role inheriting it.
	s.grant("big", "late", true)
	c.InvalidateRole("big")
	allowedIs(t, c, "uf500", "", "late", true)
}
