package cache

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// pauseAfterRead makes the next read of kind/key stop after it has read
// the store, until the returned release is called; reached is closed once
// it stopped there. Later reads pass.
func pauseAfterRead(s *fakeStore, kind, key string) (reached <-chan struct{}, release func()) {
	r, go_ := make(chan struct{}), make(chan struct{})
	var held atomic.Bool
	s.afterRead = func(k, name string) {
		if k == kind && name == key && held.CompareAndSwap(false, true) {
			close(r)
			<-go_
		}
	}
	return r, func() { close(go_) }
}

// A build that read the store before an invalidation must not publish
// what it read: the next check reads again and answers from the new state.
// One case per kind of invalidation, each lined up exactly: the build is
// held after its read while the change and its invalidation happen.
func TestBuildThatReadBeforeAnInvalidationIsNotPublished(t *testing.T) {
	cases := []struct {
		name      string
		kind, key string // the read to hold
		warm      bool   // sara's entry cached first (a role refresh, not a user build)
		change    func(s *fakeStore, c *Cache)
		want      bool
	}{
		{"membership removed during the user's build", "user", "sara", false,
			func(s *fakeStore, c *Cache) { s.member("sara", "editor", false); c.InvalidateUser("sara") }, false},
		{"grant revoked during the role's build", "role", "editor", false,
			func(s *fakeStore, c *Cache) { s.grant("editor", "edit", false); c.InvalidateRole("editor") }, false},
		{"grant revoked during a warm user's role refresh", "role", "editor", true,
			func(s *fakeStore, c *Cache) { s.grant("editor", "edit", false); c.InvalidateRole("editor") }, false},
		{"role deleted during the user's build", "user", "sara", false,
			func(s *fakeStore, c *Cache) { s.deleteRole("editor"); c.DeleteRole("editor") }, false},
		{"flush during the user's build", "user", "sara", false,
			func(s *fakeStore, c *Cache) { s.member("sara", "editor", false); c.Flush() }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeStore()
			s.grant("editor", "edit", true)
			s.member("sara", "editor", true)
			c := newTestCache(s)
			if tc.warm {
				allowedIs(t, c, "sara", "", "edit", true)
				c.InvalidateRole("editor") // the next check refreshes the role
			}
			reached, release := pauseAfterRead(s, tc.kind, tc.key)
			done := make(chan struct{})
			go func() {
				defer close(done)
				// It overlapped the change: either answer is right.
				c.Allowed(bg, "sara", "", "edit")
			}()
			<-reached
			tc.change(s, c)
			release()
			<-done
			allowedIs(t, c, "sara", "", "edit", tc.want)
			s.mu.Lock()
			member := s.members["sara"]["editor"]
			s.mu.Unlock()
			roleIs(t, c, "sara", "", "editor", member)
		})
	}
}

// A check that starts after an invalidation never waits for a build that
// began before it: it reads the store itself, and answers the new state
// while the old build is still held.
func TestCheckAfterInvalidationDoesNotJoinAnOlderBuild(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.member("sara", "editor", true)
	c := newTestCache(s)
	reached, release := pauseAfterRead(s, "user", "sara")
	done := make(chan bool)
	go func() {
		ok, _ := c.Allowed(bg, "sara", "", "edit")
		done <- ok
	}()
	<-reached
	s.member("sara", "editor", false)
	c.InvalidateUser("sara")
	allowedIs(t, c, "sara", "", "edit", false) // would block if it joined
	release()
	<-done
	allowedIs(t, c, "sara", "", "edit", false)
}

// A check that starts after a revoke and joins a user build that began
// before it (the user's epoch does not move on a grant) must not answer
// from the role set that build read before the revoke.
func TestJoinedBuildDoesNotAnswerFromARevokedSet(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.member("sara", "editor", true)
	c := newTestCache(s)
	reached, release := pauseAfterRead(s, "role", "editor")
	first := make(chan struct{})
	go func() {
		defer close(first)
		c.Allowed(bg, "sara", "", "edit") // overlaps the revoke: either answer
	}()
	<-reached // the build read editor's set, with edit
	s.grant("editor", "edit", false)
	c.InvalidateRole("editor")
	second := make(chan bool)
	go func() {
		ok, _ := c.Allowed(bg, "sara", "", "edit")
		second <- ok
	}()
	for c.userFlights.waiting("sara") < 1 {
		runtime.Gosched()
	}
	release()
	<-first
	if <-second {
		t.Fatal("a check that began after the revoke answered from the set read before it")
	}
	allowedIs(t, c, "sara", "", "edit", false)
}

// 64 goroutines checking one uncached user read the store once: one read
// of the user's roles, one of each role.
func TestConcurrentMissesReadTheStoreOnce(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.grant("viewer", "read", true)
	s.member("sara", "editor", true)
	s.member("sara", "viewer", true)
	c := newTestCache(s)
	reached, release := pauseAfterRead(s, "user", "sara")
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ok, err := c.Allowed(bg, "sara", "", "read"); err != nil || !ok {
				errs <- fmt.Errorf("Allowed = %v, %v", ok, err)
			}
		}()
	}
	<-reached
	// Every other goroutine is waiting for the held build before it goes on.
	for c.userFlights.waiting("sara") < 63 {
		runtime.Gosched()
	}
	release()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if u, r := s.userReads.Load(), s.roleReads.Load(); u != 1 || r != 2 {
		t.Fatalf("64 concurrent misses made %d user reads and %d role reads, want 1 and 2", u, r)
	}
}

// Checks racing every kind of change, against a model. A single writer
// changes the store, invalidates, then publishes the new version; each
// check notes the version before and after, and its answer must be the
// model's answer at one of those versions or the next one (a write in
// progress when the check ended). Run with -race.
func TestChecksRacingChangesAgreeWithTheModel(t *testing.T) {
	for _, renew := range []bool{false, true} {
		t.Run(fmt.Sprintf("renew=%v", renew), func(t *testing.T) { checksRacingChanges(t, renew) })
	}
}

func checksRacingChanges(t *testing.T, renew bool) {
	const (
		users, roles, perms, scopes = 4, 4, 3, 2
		writes                      = 3000
	)
	s := newFakeStore()
	// A fixed chain: role-1 inherits role-0, role-2 inherits role-1.
	s.inherit("role-1", "role-0")
	s.inherit("role-2", "role-1")
	c := NewWith(s, NewBudget(6, 1<<40), Options{Renew: renew}) // small: evictions race too

	type state struct {
		member [users][roles]bool
		scoped [users][roles]bool // in scope-0 only
		grant  [roles][perms]bool
	}
	ancestors := func(r int) []int {
		out := []int{r}
		for r > 0 && r <= 2 {
			r--
			out = append(out, r)
		}
		return out
	}
	answer := func(st *state, u, scope, p int) bool {
		for r := range roles {
			if !st.member[u][r] && !(scope == 0 && st.scoped[u][r]) {
				continue
			}
			for _, a := range ancestors(r) {
				if st.grant[a][p] {
					return true
				}
			}
		}
		return false
	}
	var (
		mu      sync.Mutex
		history = []state{{}}
	)
	version := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(history) - 1
	}
	type record struct {
		u, scope, p, before, after int
		got                        bool
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	results := make([][]record, 3)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			for {
				select {
				case <-stop:
					return
				default:
				}
				u, sc, p := rng.IntN(users), rng.IntN(scopes+1)-1, rng.IntN(perms)
				scope := ""
				if sc >= 0 {
					scope = fmt.Sprintf("scope-%d", sc)
				}
				before := version()
				var got bool
				var err error
				if g == 2 {
					// The where answer, read for one scope, is the check.
					var global bool
					var in []string
					global, in, err = c.Where(bg, fmt.Sprintf("user-%d", u), fmt.Sprintf("perm-%d", p))
					got = global || scope != "" && slices.Contains(in, scope)
				} else {
					got, err = c.Allowed(bg, fmt.Sprintf("user-%d", u), scope, fmt.Sprintf("perm-%d", p))
				}
				if err != nil {
					t.Error(err)
					return
				}
				results[g] = append(results[g], record{u, sc, p, before, version(), got})
			}
		}()
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range writes {
		mu.Lock()
		st := history[len(history)-1]
		mu.Unlock()
		u, r, p := rng.IntN(users), rng.IntN(roles), rng.IntN(perms)
		user, role := fmt.Sprintf("user-%d", u), fmt.Sprintf("role-%d", r)
		switch k := rng.IntN(10); {
		case k < 4:
			st.grant[r][p] = !st.grant[r][p]
			s.grant(role, fmt.Sprintf("perm-%d", p), st.grant[r][p])
			c.InvalidateRole(role)
		case k < 7:
			st.member[u][r] = !st.member[u][r]
			s.member(user, role, st.member[u][r])
			c.InvalidateUser(user)
		case k < 8:
			st.scoped[u][r] = !st.scoped[u][r]
			s.scopedMember(user, "scope-0", role, st.scoped[u][r])
			c.InvalidateUser(user)
		case k < 9:
			// Deleting a role drops its grants and memberships; the
			// model's chain of links stays fixed.
			for x := range users {
				st.member[x][r], st.scoped[x][r] = false, false
			}
			st.grant[r] = [perms]bool{}
			s.deleteRoleKeepLinks(role)
			c.DeleteRole(role)
		default:
			c.Flush()
		}
		mu.Lock()
		history = append(history, st)
		mu.Unlock()
		runtime.Gosched()
	}
	close(stop)
	wg.Wait()
	// skewed reports whether got is the answer for the roles held at one
	// version and each role's set at some (maybe other) version of window.
	skewed := func(window []state, u, scope, p int, got bool) bool {
		roleHas := func(r int) (some, all bool) { // p in r's set at some / every version
			all = true
			for i := range window {
				has := false
				for _, a := range ancestors(r) {
					has = has || window[i].grant[a][p]
				}
				some, all = some || has, all && has
			}
			return some, all
		}
		for i := range window {
			anyHas, allLack := false, true
			for r := range roles {
				if !window[i].member[u][r] && !(scope == 0 && window[i].scoped[u][r]) {
					continue
				}
				some, all := roleHas(r)
				anyHas = anyHas || some
				allLack = allLack && !all
			}
			if got && anyHas || !got && allLack {
				return true
			}
		}
		return false
	}
	n := 0
	for _, rs := range results {
		for _, rec := range rs {
			n++
			last := min(rec.after+1, len(history)-1)
			ok := false
			for v := rec.before; v <= last; v++ {
				if answer(&history[v], rec.u, rec.scope, rec.p) == rec.got {
					ok = true
					break
				}
			}
			// A miss reads the user's roles and each role's set in separate
			// reads, as two queries on the store would: a check that
			// overlaps several writes may combine roles read at one version
			// with a role's set read at another, both within its window.
			ok = ok || skewed(history[rec.before:last+1], rec.u, rec.scope, rec.p, rec.got)
			if !ok {
				t.Fatalf("user-%d scope %d perm-%d answered %v, true at no version in [%d, %d]",
					rec.u, rec.scope, rec.p, rec.got, rec.before, rec.after+1)
			}
		}
	}
	// Once quiet, every answer is the final state's.
	final := &history[len(history)-1]
	for u := range users {
		for sc := -1; sc < scopes; sc++ {
			for p := range perms {
				scope := ""
				if sc >= 0 {
					scope = fmt.Sprintf("scope-%d", sc)
				}
				allowedIs(t, c, fmt.Sprintf("user-%d", u), scope, fmt.Sprintf("perm-%d", p), answer(final, u, sc, p))
			}
		}
	}
	t.Logf("%d checks against %d writes", n, writes)
}
