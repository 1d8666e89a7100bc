package cache

import (
	"fmt"
	"testing"
	"time"
)

func newRenewingCache(s *fakeStore) *Cache {
	return NewWith(s, NewBudget(1_000_000, 1<<40), Options{Renew: true})
}

// await waits for reached (a read held by pauseAfterRead).
func await(t *testing.T, reached <-chan struct{}) {
	t.Helper()
	select {
	case <-reached:
	case <-time.After(10 * time.Second):
		t.Fatal("renewal never read the role")
	}
}

// renewed waits until the cache's renewal has nothing left to do.
func renewed(t *testing.T, c *Cache) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.mu.Lock()
		idle := !c.renewRuns
		c.mu.Unlock()
		if idle {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("renewal still running after 10 s")
		}
		time.Sleep(time.Millisecond)
	}
}

// A grant and a revoke on a role held by cached users: the role is read
// again once, off the checking path, and every member's next check (global
// and scoped, and through inheritance) is answered from memory with the
// change, reading nothing.
func TestRenewalAnswersMembersFromMemory(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.inherit("chief", "editor")
	var users []string
	for i := range 10 {
		u := fmt.Sprintf("user-%d", i)
		users = append(users, u)
		switch i % 3 {
		case 0:
			s.member(u, "editor", true)
		case 1:
			s.scopedMember(u, "project:1", "editor", true)
		default:
			s.member(u, "chief", true)
		}
	}
	c := newRenewingCache(s)
	for _, u := range users {
		allowedIs(t, c, u, "project:1", "edit", true)
	}
	for _, step := range []struct {
		on   bool
		want bool
	}{{true, true}, {false, false}} {
		userReads, roleLoads := s.userReads.Load(), s.roleLoads.Load()
		s.grant("editor", "publish", step.on)
		c.InvalidateRole("editor")
		renewed(t, c)
		if n := s.roleLoads.Load() - roleLoads; n != 1 {
			t.Fatalf("publish %v: renewal read the roles %d times, want once (editor and chief together)", step.on, n)
		}
		for _, u := range users {
			warmIs(t, c, u, "project:1", "publish", step.want)
			warmIs(t, c, u, "project:1", "edit", true)
		}
		if n := s.userReads.Load() - userReads; n != 0 {
			t.Fatalf("publish %v: %d user reads; the memberships did not change", step.on, n)
		}
		if n := s.roleLoads.Load() - roleLoads; n != 1 {
			t.Fatalf("publish %v: the checks read the roles again (%d reads in all)", step.on, n)
		}
	}
}

// sarasRenewalHeld caches sara, a member of editor (which grants edit),
// in a renewing cache, and holds the next read of editor after it has
// read (see pauseAfterRead).
func sarasRenewalHeld(t *testing.T) (s *fakeStore, c *Cache, reached <-chan struct{}, release func()) {
	t.Helper()
	s = newFakeStore()
	s.grant("editor", "edit", true)
	s.member("sara", "editor", true)
	c = newRenewingCache(s)
	allowedIs(t, c, "sara", "", "edit", true)
	reached, release = pauseAfterRead(s, "role", "editor")
	return s, c, reached, release
}

// Renewal is a build like any other: when the role changes again while
// renewal reads it, what renewal read is not published, and the next
// check answers the newest state.
func TestRenewalOvertakenByAChangeIsNotPublished(t *testing.T) {
	s, c, reached, release := sarasRenewalHeld(t)
	s.grant("editor", "publish", true)
	c.InvalidateRole("editor") // renewal reads editor, with publish, and holds
	await(t, reached)
	s.grant("editor", "publish", false)
	s.grant("editor", "edit", false)
	c.InvalidateRole("editor")
	release()
	renewed(t, c)
	allowedIs(t, c, "sara", "", "publish", false)
	allowedIs(t, c, "sara", "", "edit", false)
}

// A closed cache renews nothing, and its renewal ends.
func TestRenewalEndsWithTheCache(t *testing.T) {
	_, c, reached, release := sarasRenewalHeld(t)
	c.InvalidateRole("editor")
	await(t, reached)
	c.Close()
	release()
	renewed(t, c)
	if c.Len() != 0 || c.Roles() != 0 {
		t.Fatalf("a closed cache holds %d users and %d roles after renewal", c.Len(), c.Roles())
	}
	c.InvalidateRole("editor")
	c.mu.Lock()
	runs := c.renewRuns
	c.mu.Unlock()
	if runs {
		t.Fatal("a closed cache started renewing")
	}
}

// A role's list of members is compacted as its members' entries are
// replaced: users checked and changed over and over do not grow it.
func TestRenewalMembersStayBounded(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	for i := range 20 {
		s.member(fmt.Sprintf("user-%d", i), "editor", true)
	}
	c := newRenewingCache(s)
	for range 200 {
		for i := range 20 {
			u := fmt.Sprintf("user-%d", i)
			allowedIs(t, c, u, "", "edit", true)
			c.InvalidateUser(u)
		}
	}
	r, ok := c.roles.Load("editor")
	if !ok {
		t.Fatal("editor is not cached")
	}
	c.mu.Lock()
	n := len(r.members)
	c.mu.Unlock()
	if n > 64 {
		t.Fatalf("editor lists %d member entries after 4,000 rebuilds of 20 users; want at most about twice 20", n)
	}
}
