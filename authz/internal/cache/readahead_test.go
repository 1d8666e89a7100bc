package cache

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// A committed grant and revoke on a role held by cached users, told with
// InvalidateRoleRead: the role and the role inheriting from it are read
// in that call, once, and each member's next check, made before renewal
// could run, already sees the change without reading the store.
func TestInvalidateRoleReadReplacesTheSets(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.inherit("chief", "editor")
	s.member("ann", "editor", true)
	s.member("bob", "chief", true)
	c := newRenewingCache(s)
	allowedIs(t, c, "ann", "", "edit", true)
	allowedIs(t, c, "bob", "", "edit", true)
	for _, grant := range []bool{true, false} {
		s.grant("editor", "publish", grant)
		// Renewal held back: the checks below must not need it.
		release := holdRenewal(c)
		loads := s.roleLoads.Load()
		c.InvalidateRoleRead(context.Background(), "editor", s.RoleGrants)
		if n := s.roleLoads.Load() - loads; n != 1 {
			t.Fatalf("InvalidateRoleRead read the store %d times, want once for both sets", n)
		}
		for _, name := range []string{"editor", "chief"} {
			if r, ok := c.roles.Load(name); !ok || r.dead.Load() {
				t.Fatalf("grant %v: %s's set is not live after InvalidateRoleRead", grant, name)
			}
		}
		users, roles := s.userReads.Load(), s.roleLoads.Load()
		allowedIs(t, c, "ann", "", "publish", grant)
		allowedIs(t, c, "bob", "", "publish", grant)
		allowedIs(t, c, "bob", "", "edit", true)
		if u, r := s.userReads.Load()-users, s.roleLoads.Load()-roles; u != 0 || r != 0 {
			t.Fatalf("grant %v: the members' checks read the store (%d user reads, %d role reads)", grant, u, r)
		}
		release()
	}
}

// Another change to the role between InvalidateRoleRead's read and its
// step: what it read may predate that change, so it is not published;
// the next check reads the role again and sees both.
func TestInvalidateRoleReadRacedByAnotherChange(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.member("ann", "editor", true)
	c := newRenewingCache(s)
	allowedIs(t, c, "ann", "", "edit", true)
	s.grant("editor", "publish", true)
	s.afterRead = func(kind, key string) {
		if kind != "role" {
			return
		}
		s.afterRead = nil
		// Committed and told after the read above, before its step.
		s.grant("editor", "delete", true)
		c.InvalidateRole("editor")
	}
	// Renewal held back, so that only InvalidateRoleRead could publish.
	release := holdRenewal(c)
	c.InvalidateRoleRead(context.Background(), "editor", s.RoleGrants)
	if r, ok := c.roles.Load("editor"); ok && !r.dead.Load() {
		t.Fatal("a set read before another change was published after it")
	}
	release()
	allowedIs(t, c, "ann", "", "publish", true)
	allowedIs(t, c, "ann", "", "delete", true)
}

// failingRoles is a store whose role reads fail while fail is set.
type failingRoles struct {
	*fakeStore
	fail atomic.Bool
}

func (f *failingRoles) RoleGrants(ctx context.Context, roles []string, at time.Time, fn func(role string, sources []string, grants [][]string, next time.Time) error) error {
	if f.fail.Load() {
		return errors.New("store unreachable")
	}
	return f.fakeStore.RoleGrants(ctx, roles, at, fn)
}

// A read that fails leaves the sets dead, as InvalidateRole does: the
// next check reads for itself.
func TestInvalidateRoleReadFailing(t *testing.T) {
	s := &failingRoles{fakeStore: newFakeStore()}
	s.grant("editor", "edit", true)
	s.member("ann", "editor", true)
	c := NewWith(s, NewBudget(1_000_000, 1<<40), Options{Renew: true})
	allowedIs(t, c, "ann", "", "edit", true)
	s.grant("editor", "edit", false)
	s.fail.Store(true)
	c.InvalidateRoleRead(context.Background(), "editor", s.RoleGrants)
	if r, ok := c.roles.Load("editor"); ok && !r.dead.Load() {
		t.Fatal("a set survived its invalidation when the read failed")
	}
	renewed(t, c)
	s.fail.Store(false)
	allowedIs(t, c, "ann", "", "edit", false)
}

// With renewal off, InvalidateRoleRead is InvalidateRole: nothing read.
func TestInvalidateRoleReadWithoutRenewal(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.member("ann", "editor", true)
	c := newTestCache(s)
	allowedIs(t, c, "ann", "", "edit", true)
	s.grant("editor", "edit", false)
	loads := s.roleLoads.Load()
	c.InvalidateRoleRead(context.Background(), "editor", s.RoleGrants)
	if n := s.roleLoads.Load() - loads; n != 0 {
		t.Fatalf("InvalidateRoleRead without renewal read the store %d times", n)
	}
	allowedIs(t, c, "ann", "", "edit", false)
}

// A role that more than readAheadMax roles inherit: the write does not
// read them all; they die, and renewal (or the next check) reads them.
func TestInvalidateRoleReadLeavesManyToRenewal(t *testing.T) {
	s := newFakeStore()
	s.grant("base", "read", true)
	for i := range readAheadMax + 1 {
		r := fmt.Sprintf("r%d", i)
		s.inherit(r, "base")
		s.member(fmt.Sprintf("u%d", i), r, true)
	}
	c := newRenewingCache(s)
	for i := range readAheadMax + 1 {
		allowedIs(t, c, fmt.Sprintf("u%d", i), "", "read", true)
	}
	renewed(t, c)
	s.grant("base", "write", true)
	release := holdRenewal(c)
	loads := s.roleLoads.Load()
	c.InvalidateRoleRead(context.Background(), "base", s.RoleGrants)
	if n := s.roleLoads.Load() - loads; n != 0 {
		t.Fatalf("InvalidateRoleRead read %d times for a role %d others inherit", n, readAheadMax+1)
	}
	release()
	for i := range readAheadMax + 1 {
		allowedIs(t, c, fmt.Sprintf("u%d", i), "", "write", true)
	}
}

// holdRenewal keeps c's renewal from starting (what it is given waits),
// so that only the call under test reads; release lets it run again.
func holdRenewal(c *Cache) (release func()) {
	c.mu.Lock()
	c.renewRuns = true
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		c.renewRuns = false
		c.mu.Unlock()
	}
}
