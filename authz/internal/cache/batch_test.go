package cache

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// A cold user in 33 roles (global and scoped) has their roles' sets read
// in one read of the store, not one per role; after a grant on the role
// they all inherit, the refresh reads the 32 dead sets again in one read.
func TestColdUserReadsAllRolesAtOnce(t *testing.T) {
	s := newFakeStore()
	for i := range 32 {
		r := fmt.Sprint("r", i)
		s.inherit(r, "base")
		s.grant(r, "p-"+r, true)
		s.member("all", r, true)
	}
	s.scopedMember("all", "org-1", "scoped", true)
	s.grant("scoped", "p-scoped", true)
	s.grant("base", "read", true)
	c := newTestCache(s)
	allowedIs(t, c, "all", "", "read", true)
	allowedIs(t, c, "all", "", "p-r31", true)
	allowedIs(t, c, "all", "org-1", "p-scoped", true)
	allowedIs(t, c, "all", "", "p-scoped", false)
	if loads, roles := s.roleLoads.Load(), s.roleReads.Load(); loads != 1 || roles != 33 {
		t.Fatalf("a cold user in 33 roles: %d reads of %d roles, want 1 read of 33", loads, roles)
	}
	s.grant("base", "write", true)
	c.InvalidateRole("base")
	allowedIs(t, c, "all", "", "write", true)
	if loads, roles := s.roleLoads.Load(), s.roleReads.Load(); loads != 2 || roles != 33+32 {
		t.Fatalf("after a grant on base: %d reads of %d roles in all, want 2 of %d", loads, roles, 33+32)
	}
	allowedIs(t, c, "all", "org-1", "p-scoped", true)
	if loads := s.roleLoads.Load(); loads != 2 {
		t.Fatalf("the scoped role, not reached by the grant, was read again (%d reads)", loads)
	}
}

// A user build that misses a role whose build another user's build is
// running (same epoch) waits for it rather than reading it again, and
// reads only the roles nobody is building; both answer right.
func TestUserBuildsShareARoleRead(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.grant("viewer", "read", true)
	s.member("sara", "editor", true)
	s.member("jack", "editor", true)
	s.member("jack", "viewer", true)
	c := newTestCache(s)
	reached, release := pauseAfterRead(s, "role", "editor")
	first := make(chan error, 1)
	go func() {
		ok, err := c.Allowed(bg, "sara", "", "edit")
		if err == nil && !ok {
			err = fmt.Errorf("sara cannot edit")
		}
		first <- err
	}()
	<-reached // sara's build read editor and holds there
	second := make(chan error, 1)
	go func() {
		ok, err := c.Allowed(bg, "jack", "", "read")
		if err == nil && !ok {
			err = fmt.Errorf("jack cannot read")
		}
		second <- err
	}()
	for c.roleFlights.waiting("editor") < 1 {
		runtime.Gosched()
	}
	release()
	for _, ch := range []chan error{first, second} {
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	allowedIs(t, c, "jack", "", "edit", true)
	if roles := s.roleReads.Load(); roles != 2 {
		t.Fatalf("%d roles read, want 2 (editor once, viewer once)", roles)
	}
}

// Many users over overlapping roles, checked at once from many goroutines
// while roles are invalidated: every answer is right and nothing waits for
// ever (builds that joined each other's roles finish their own first).
func TestOverlappingUserBuildsFinish(t *testing.T) {
	s := newFakeStore()
	const users, roles = 16, 12
	for r := range roles {
		s.grant(fmt.Sprint("r", r), fmt.Sprint("p", r), true)
	}
	for u := range users {
		for k := range 4 {
			s.member(fmt.Sprint("u", u), fmt.Sprint("r", (u+k*5)%roles), true)
		}
	}
	c := newTestCache(s)
	var wg sync.WaitGroup
	errs := make(chan error, users*8)
	for g := range users * 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				u := (g + i) % users
				if i%7 == 0 {
					c.InvalidateRole(fmt.Sprint("r", (g+i)%roles))
				}
				r := (u + (i%4)*5) % roles
				ok, err := c.Allowed(bg, fmt.Sprint("u", u), "", fmt.Sprint("p", r))
				if err != nil || !ok {
					errs <- fmt.Errorf("u%d p%d = %v, %v; want true", u, r, ok, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
