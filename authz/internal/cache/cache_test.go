package cache

import (
	"context"
	"fmt"
	"testing"
)

var bg = context.Background()

func newTestCache(s *fakeStore) *Cache { return New(s, NewBudget(1_000_000, 1<<40), nil) }

func allowedIs(t *testing.T, c *Cache, user, scope, perm string, want bool) {
	t.Helper()
	got, err := c.Allowed(bg, user, scope, perm)
	if err != nil || got != want {
		t.Fatalf("Allowed(%s, %q, %s) = %v, %v; want %v", user, scope, perm, got, err, want)
	}
}

func roleIs(t *testing.T, c *Cache, user, scope, role string, want bool) {
	t.Helper()
	got, err := c.HasRole(bg, user, scope, role)
	if err != nil || got != want {
		t.Fatalf("HasRole(%s, %q, %s) = %v, %v; want %v", user, scope, role, got, err, want)
	}
}

// Every kind of change, invalidated as authz does after commit, is seen by
// the very next check.
func TestEveryChangeIsSeenByTheNextCheck(t *testing.T) {
	s := newFakeStore()
	c := newTestCache(s)
	allowedIs(t, c, "sara", "", "edit", false)
	s.grant("editor", "edit", true)
	c.InvalidateRole("editor")
	allowedIs(t, c, "sara", "", "edit", false)
	s.member("sara", "editor", true)
	c.InvalidateUser("sara")
	allowedIs(t, c, "sara", "", "edit", true)
	roleIs(t, c, "sara", "", "editor", true)
	s.grant("editor", "edit", false)
	c.InvalidateRole("editor")
	allowedIs(t, c, "sara", "", "edit", false)
	s.grant("editor", "edit", true)
	c.InvalidateRole("editor")
	allowedIs(t, c, "sara", "", "edit", true)
	s.member("sara", "editor", false)
	c.InvalidateUser("sara")
	allowedIs(t, c, "sara", "", "edit", false)
	roleIs(t, c, "sara", "", "editor", false)
	s.member("sara", "editor", true)
	c.InvalidateUser("sara")
	allowedIs(t, c, "sara", "", "edit", true)
	s.deleteRole("editor")
	c.DeleteRole("editor")
	allowedIs(t, c, "sara", "", "edit", false)
	roleIs(t, c, "sara", "", "editor", false)
	s.grant("editor", "edit", true) // re-created role: nothing comes back but this grant
	c.InvalidateRole("editor")
	allowedIs(t, c, "sara", "", "edit", false)
	s.member("sara", "editor", true)
	c.Flush() // as for a change nobody can explain
	allowedIs(t, c, "sara", "", "edit", true)
}

// A grant drops that role's set and nothing else: users of other roles
// stay warm, and the users of the role read only the role again.
func TestGrantDropsOnlyThatRole(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.grant("viewer", "read", true)
	s.member("sara", "editor", true)
	s.member("jack", "viewer", true)
	c := newTestCache(s)
	allowedIs(t, c, "sara", "", "edit", true)
	allowedIs(t, c, "jack", "", "read", true)
	users, roles := s.userReads.Load(), s.roleReads.Load()

	s.grant("editor", "publish", true)
	c.InvalidateRole("editor")
	allowedIs(t, c, "jack", "", "read", true)
	if s.userReads.Load() != users || s.roleReads.Load() != roles {
		t.Fatal("a grant on editor made a viewer's check read the store")
	}
	allowedIs(t, c, "sara", "", "publish", true)
	allowedIs(t, c, "sara", "", "edit", true)
	if got := s.userReads.Load() - users; got != 0 {
		t.Fatalf("a grant re-read %d users' roles, want 0", got)
	}
	if got := s.roleReads.Load() - roles; got != 1 {
		t.Fatalf("a grant made %d role reads, want 1", got)
	}
}

// A role set that dies marks its members' entries, its dependents'
// members' too (inheritance), and no other entry: the users of other
// roles keep the warm check's one comparison, and a member's next check
// looks at its role sets, finds one dead and reads it again.
func TestKillMarksOnlyMembers(t *testing.T) {
	s := newFakeStore()
	s.inherit("lead", "editor")
	s.grant("editor", "edit", true)
	s.grant("viewer", "read", true)
	s.member("sara", "editor", true)
	s.member("lena", "lead", true)
	s.member("jack", "viewer", true)
	s.member("mia", "viewer", true)
	s.scopedMember("mia", "docs", "editor", true)
	c := newTestCache(s)
	allowedIs(t, c, "sara", "", "edit", true)
	allowedIs(t, c, "lena", "", "edit", true)
	allowedIs(t, c, "jack", "", "read", true)
	allowedIs(t, c, "mia", "docs", "edit", true)
	entry := func(user string) *userEntry {
		t.Helper()
		u, ok := c.lookup(user)
		if !ok {
			t.Fatalf("%s is not cached", user)
		}
		return u
	}
	for _, user := range []string{"sara", "lena", "jack", "mia"} {
		if u := entry(user); u.seen.Load() != u.marks.Load() {
			t.Fatalf("%s: a warm entry not seen (marks %d, seen %d)", user, u.marks.Load(), u.seen.Load())
		}
	}
	s.grant("editor", "publish", true)
	c.InvalidateRole("editor")
	for _, user := range []string{"sara", "lena", "mia"} {
		if u := entry(user); u.seen.Load() == u.marks.Load() {
			t.Errorf("%s holds editor (or inherits it) but was not marked", user)
		}
	}
	if u := entry("jack"); u.marks.Load() != 0 || u.seen.Load() != 0 {
		t.Errorf("jack holds viewer only but was marked (marks %d, seen %d)", u.marks.Load(), u.seen.Load())
	}
	roles := s.roleReads.Load()
	allowedIs(t, c, "jack", "", "read", true)
	if s.roleReads.Load() != roles {
		t.Fatal("a grant on editor made a viewer's check read the store")
	}
	allowedIs(t, c, "sara", "", "publish", true)
	allowedIs(t, c, "lena", "", "publish", true)
	allowedIs(t, c, "mia", "docs", "publish", true)
	allowedIs(t, c, "mia", "", "publish", false)
}

// The entries a user's changes replace are not kept reachable from the
// live ones: grants alternating between the user's two roles, a check
// after each, each rebuilding the entry, leave a few user entries
// reachable from those in use (through the role sets' members and the
// sets each entry holds), not one a change.
func TestReplacedEntriesAreNotChained(t *testing.T) {
	for _, renew := range []bool{false, true} {
		s := newFakeStore()
		s.grant("a", "x", true)
		s.grant("b", "y", true)
		s.member("g", "a", true)
		s.member("g", "b", true)
		c := NewWith(s, NewBudget(1_000_000, 1<<40), Options{Renew: renew})
		const changes = 400
		for i := range changes {
			role := []string{"a", "b"}[i%2]
			perm := fmt.Sprintf("p%d", i)
			s.grant(role, perm, true)
			c.InvalidateRole(role)
			allowedIs(t, c, "g", "", perm, true)
		}
		c.mu.Lock()
		seen := map[*userEntry]bool{}
		var walk func(u *userEntry)
		walk = func(u *userEntry) {
			if seen[u] {
				return
			}
			seen[u] = true
			for _, r := range append(append([]*roleEntry(nil), u.global...), u.scopedRoles...) {
				for _, m := range r.members {
					walk(m)
				}
			}
		}
		c.users.Range(func(_ string, u *userEntry) bool {
			walk(u)
			return true
		})
		c.mu.Unlock()
		if len(seen) > 16 {
			t.Errorf("renewal %v: %d user entries reachable after %d changes to one user's roles", renew, len(seen), changes)
		}
	}
}

// A membership change drops that user only.
func TestMembershipDropsOnlyThatUser(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.member("sara", "editor", true)
	s.member("jack", "editor", true)
	c := newTestCache(s)
	allowedIs(t, c, "sara", "", "edit", true)
	allowedIs(t, c, "jack", "", "edit", true)
	users, roles := s.userReads.Load(), s.roleReads.Load()
	s.member("jack", "editor", false)
	c.InvalidateUser("jack")
	allowedIs(t, c, "sara", "", "edit", true)
	allowedIs(t, c, "jack", "", "edit", false)
	if s.userReads.Load()-users != 1 || s.roleReads.Load() != roles {
		t.Fatalf("after jack's membership change: %d user reads (want 1), %d role reads (want 0)",
			s.userReads.Load()-users, s.roleReads.Load()-roles)
	}
}

// Members of one role share its permission set.
func TestMembersShareTheRoleSet(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	for _, u := range []string{"a", "b", "c"} {
		s.member(u, "editor", true)
	}
	c := newTestCache(s)
	for _, u := range []string{"a", "b", "c"} {
		allowedIs(t, c, u, "", "edit", true)
	}
	if n := s.roleReads.Load(); n != 1 {
		t.Fatalf("three members of one role read it %d times, want 1", n)
	}
	if c.Roles() != 1 {
		t.Fatalf("%d role sets cached, want 1", c.Roles())
	}
}

// With inheritance, a grant on a role reaches the roles inheriting from it,
// transitively, and deleting a role in the middle of a chain cuts it.
func TestInheritedChangesReachDescendants(t *testing.T) {
	s := newFakeStore()
	s.inherit("admin", "editor")
	s.inherit("editor", "viewer")
	s.member("ann", "admin", true)
	s.member("ed", "editor", true)
	s.member("other", "other", true)
	s.grant("other", "x", true)
	c := newTestCache(s)
	allowedIs(t, c, "ann", "", "read", false)
	allowedIs(t, c, "ed", "", "read", false)
	allowedIs(t, c, "other", "", "x", true)
	roles := s.roleReads.Load()
	s.grant("viewer", "read", true)
	c.InvalidateRole("viewer")
	allowedIs(t, c, "ann", "", "read", true)
	allowedIs(t, c, "ed", "", "read", true)
	allowedIs(t, c, "other", "", "x", true)
	if got := s.roleReads.Load() - roles; got != 2 {
		t.Fatalf("a grant on viewer made %d role reads, want 2 (admin, editor)", got)
	}
	s.deleteRole("editor")
	c.DeleteRole("editor")
	allowedIs(t, c, "ann", "", "read", false)
	allowedIs(t, c, "ed", "", "read", false)
	roleIs(t, c, "ed", "", "editor", false)
}

// A global role holds in every scope; a scoped one in its own only.
func TestScopes(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.grant("viewer", "read", true)
	s.member("sara", "viewer", true)
	s.scopedMember("sara", "org-42", "editor", true)
	c := newTestCache(s)
	allowedIs(t, c, "sara", "org-42", "edit", true)
	allowedIs(t, c, "sara", "org-7", "edit", false)
	allowedIs(t, c, "sara", "", "edit", false)
	allowedIs(t, c, "sara", "org-7", "read", true)
	allowedIs(t, c, "sara", "", "read", true)
	roleIs(t, c, "sara", "org-42", "editor", true)
	roleIs(t, c, "sara", "org-7", "editor", false)
	roleIs(t, c, "sara", "org-7", "viewer", true)
	s.grant("editor", "edit", false)
	c.InvalidateRole("editor")
	allowedIs(t, c, "sara", "org-42", "edit", false)
	s.scopedMember("sara", "org-7", "editor", true)
	s.grant("editor", "edit", true)
	c.InvalidateRole("editor")
	c.InvalidateUser("sara")
	allowedIs(t, c, "sara", "org-7", "edit", true)
	s.deleteRole("editor")
	c.DeleteRole("editor")
	allowedIs(t, c, "sara", "org-42", "edit", false)
	roleIs(t, c, "sara", "org-42", "editor", false)
}

// The warm check takes no allocation; InternUser points into the entry.
func TestWarmCheckAllocatesNothing(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.member("sara", "editor", true)
	s.scopedMember("sara", "org", "editor", true)
	c := newTestCache(s)
	allowedIs(t, c, "sara", "org", "edit", true)
	if n := testing.AllocsPerRun(1000, func() {
		c.Allowed(bg, "sara", "org", "edit")
		c.Allowed(bg, "sara", "org", "nope")
		c.HasRole(bg, "sara", "org", "editor")
	}); n != 0 {
		t.Fatalf("warm check allocates %v times", n)
	}
	if p := c.InternUser("sara"); p == nil || *p != "sara" {
		t.Fatal("InternUser of a cached user")
	}
	if c.InternUser("nobody") != nil {
		t.Fatal("InternUser of an uncached user")
	}
}

// A closed cache caches nothing and still answers from the store.
func TestClosedCacheReadsTheStore(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.member("sara", "editor", true)
	b := NewBudget(100, 1<<40)
	c := New(s, b, nil)
	allowedIs(t, c, "sara", "", "edit", true)
	c.Close()
	if c.Len() != 0 || c.Roles() != 0 || b.Used() != 0 {
		t.Fatalf("closed cache holds %d users, %d roles; budget %d", c.Len(), c.Roles(), b.Used())
	}
	s.member("sara", "editor", false) // no invalidation reaches a closed cache
	allowedIs(t, c, "sara", "", "edit", false)
	if c.Len() != 0 {
		t.Fatal("a closed cache cached a user")
	}
}
