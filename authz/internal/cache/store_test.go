package cache

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// fakeStore is an in-memory store behind the Loader interface: global and
// scoped memberships, grants, and inheritance links. Each Loader call
// reads the state at one moment, as a database read would; hooks let a
// test stop a read after it has read, to line up a race exactly.
type fakeStore struct {
	mu      sync.Mutex
	members map[string]map[string]bool            // user -> role
	scoped  map[string]map[string]map[string]bool // user -> scope -> role
	grants  map[string]map[string]bool            // role -> permission
	parents map[string][]string                   // role -> roles it inherits from
	// bounds of rows that hold from [0] (zero: always) until [1] (zero:
	// for ever), by boundKey.
	bounds map[string][2]time.Time

	// userReads counts the user reads, roleReads the roles read and
	// roleLoads the reads of roles (one read may cover several roles).
	userReads, roleReads, roleLoads atomic.Int64
	// afterRead, when set, runs after a read and before it returns: kind
	// is "user" or "role".
	afterRead func(kind, key string)
}

var _ Loader = (*fakeStore)(nil)

func newFakeStore() *fakeStore {
	return &fakeStore{
		members: map[string]map[string]bool{},
		scoped:  map[string]map[string]map[string]bool{},
		grants:  map[string]map[string]bool{},
		parents: map[string][]string{},
		bounds:  map[string][2]time.Time{},
	}
}

// boundKey names a row: a global membership (user, role), a scoped one
// (user, scope, role) or a grant ("grant", role, perm).
func boundKey(parts ...string) string { return strings.Join(parts, "\x00") }

// heldLocked reports whether the row key holds at at, and moves *next to
// its boundary after at when that is earlier.
func (s *fakeStore) heldLocked(key string, at time.Time, next *time.Time) bool {
	b, ok := s.bounds[key]
	if !ok {
		return true
	}
	for _, t := range b {
		if !t.IsZero() && t.After(at) && (next.IsZero() || t.Before(*next)) {
			*next = t
		}
	}
	return (b[0].IsZero() || !at.Before(b[0])) && (b[1].IsZero() || at.Before(b[1]))
}

// bound sets the bounds of a row (see boundKey).
func (s *fakeStore) bound(from, until time.Time, key ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bounds[boundKey(key...)] = [2]time.Time{from, until}
}

// UserRoles answers its scoped roles in map order, not sorted: the cache
// must sort what a Loader does not.
func (s *fakeStore) UserRoles(_ context.Context, user string, at time.Time) ([]string, []ScopedRole, time.Time, error) {
	s.userReads.Add(1)
	s.mu.Lock()
	var global []string
	var next time.Time
	for r, ok := range s.members[user] {
		if ok && s.heldLocked(boundKey(user, r), at, &next) {
			global = append(global, r)
		}
	}
	var scoped []ScopedRole
	for sc, roles := range s.scoped[user] {
		for r, ok := range roles {
			if ok && s.heldLocked(boundKey(user, sc, r), at, &next) {
				scoped = append(scoped, ScopedRole{Scope: sc, Role: r})
			}
		}
	}
	s.mu.Unlock()
	slices.Sort(global)
	if hook := s.afterRead; hook != nil {
		hook("user", user)
	}
	return global, scoped, next, nil
}

func (s *fakeStore) RoleGrants(_ context.Context, roles []string, at time.Time, fn func(role string, sources []string, grants [][]string, next time.Time) error) error {
	s.roleLoads.Add(1)
	s.roleReads.Add(int64(len(roles)))
	type set struct {
		sources []string
		grants  [][]string
		next    time.Time
	}
	sets := make([]set, len(roles))
	own := map[string][]string{} // one slice per source, as the store gives
	s.mu.Lock()
	for i, role := range roles {
		seen := map[string]bool{}
		var walk func(r string)
		walk = func(r string) {
			if seen[r] {
				return
			}
			seen[r] = true
			for _, p := range s.parents[r] {
				walk(p)
			}
		}
		walk(role)
		for r := range seen {
			sets[i].sources = append(sets[i].sources, r)
		}
		slices.Sort(sets[i].sources)
		for _, r := range sets[i].sources {
			g, ok := own[r]
			if !ok {
				g = []string{}
				for p, on := range s.grants[r] {
					var next time.Time
					if on && s.heldLocked(boundKey("grant", r, p), at, &next) {
						g = append(g, p)
					}
				}
				own[r] = g
			}
			for p, on := range s.grants[r] {
				if on {
					s.heldLocked(boundKey("grant", r, p), at, &sets[i].next)
				}
			}
			sets[i].grants = append(sets[i].grants, g)
		}
	}
	s.mu.Unlock()
	if hook := s.afterRead; hook != nil {
		for _, role := range roles {
			hook("role", role)
		}
	}
	for i, role := range roles {
		if err := fn(role, sets[i].sources, sets[i].grants, sets[i].next); err != nil {
			return err
		}
	}
	return nil
}

// The writes change the store only; the test invalidates, as authz does
// after commit.

func (s *fakeStore) member(user, role string, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.members[user] == nil {
		s.members[user] = map[string]bool{}
	}
	s.members[user][role] = on
}

func (s *fakeStore) scopedMember(user, scope, role string, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scoped[user] == nil {
		s.scoped[user] = map[string]map[string]bool{}
	}
	if s.scoped[user][scope] == nil {
		s.scoped[user][scope] = map[string]bool{}
	}
	s.scoped[user][scope][role] = on
}

func (s *fakeStore) grant(role, perm string, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.grants[role] == nil {
		s.grants[role] = map[string]bool{}
	}
	s.grants[role][perm] = on
}

func (s *fakeStore) inherit(role, parent string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.parents[role] = append(s.parents[role], parent)
}

// deleteRole removes the role's grants, memberships and links.
func (s *fakeStore) deleteRole(role string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.parents, role)
	for r, ps := range s.parents {
		s.parents[r] = slices.DeleteFunc(ps, func(p string) bool { return p == role })
	}
	s.deleteGrantsAndMembersLocked(role)
}

// deleteRoleKeepLinks removes the role's grants and memberships, in one
// step, leaving its inheritance links (a fixed chain for the model test).
func (s *fakeStore) deleteRoleKeepLinks(role string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deleteGrantsAndMembersLocked(role)
}

func (s *fakeStore) deleteGrantsAndMembersLocked(role string) {
	delete(s.grants, role)
	for _, roles := range s.members {
		delete(roles, role)
	}
	for _, scopes := range s.scoped {
		for _, roles := range scopes {
			delete(roles, role)
		}
	}
}
