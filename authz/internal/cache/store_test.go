package cache

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
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
	}
}

func (s *fakeStore) UserRoles(_ context.Context, user string) ([]string, map[string][]string, error) {
	s.userReads.Add(1)
	s.mu.Lock()
	var global []string
	for r, ok := range s.members[user] {
		if ok {
			global = append(global, r)
		}
	}
	var byScope map[string][]string
	for sc, roles := range s.scoped[user] {
		for r, ok := range roles {
			if ok {
				if byScope == nil {
					byScope = map[string][]string{}
				}
				byScope[sc] = append(byScope[sc], r)
			}
		}
	}
	s.mu.Unlock()
	slices.Sort(global)
	if hook := s.afterRead; hook != nil {
		hook("user", user)
	}
	return global, byScope, nil
}

func (s *fakeStore) RoleGrants(_ context.Context, roles []string, fn func(role string, sources []string, grants [][]string) error) error {
	s.roleLoads.Add(1)
	s.roleReads.Add(int64(len(roles)))
	type set struct {
		sources []string
		grants  [][]string
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
					if on {
						g = append(g, p)
					}
				}
				own[r] = g
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
		if err := fn(role, sets[i].sources, sets[i].grants); err != nil {
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
