package cache

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
)

// Budget bounds the entries (users and role sets) of every cache
// registered with it, together: a flood of new client keys or user names
// cannot grow memory past it. Past the bound, a sweep drops the least
// recently used users of all caches down to 90% of it, then the role sets
// no cached user points at.
type Budget struct {
	max   int64
	used  atomic.Int64
	clock atomic.Uint32 // advanced by each sweep; entries record it on use

	mu     sync.Mutex // guards caches
	caches map[*Cache]struct{}
	sweep  sync.Mutex // one sweep at a time; checks keep running meanwhile
}

// NewBudget returns a budget of the given number of entries (at least 1).
func NewBudget(entries int) *Budget {
	return &Budget{max: int64(max(entries, 1)), caches: map[*Cache]struct{}{}}
}

// Used is the number of entries counted now.
func (b *Budget) Used() int { return int(b.used.Load()) }

func (b *Budget) register(c *Cache) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.caches[c] = struct{}{}
}

func (b *Budget) unregister(c *Cache) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.caches, c)
}

// add counts n more entries (n < 0: fewer), and sweeps when past the
// bound. The sweep runs in the caller, the build that went over: the
// cost falls on misses, never on the hit path.
func (b *Budget) add(n int64) {
	if b.used.Add(n) > b.max && n > 0 {
		b.evict()
	}
}

func (b *Budget) evict() {
	if !b.sweep.TryLock() {
		return
	}
	defer b.sweep.Unlock()
	b.mu.Lock()
	caches := make([]*Cache, 0, len(b.caches))
	for c := range b.caches {
		caches = append(caches, c)
	}
	b.mu.Unlock()

	keep := b.max * 9 / 10
	// Role sets nobody points at go first: they cost no user a miss.
	for _, c := range caches {
		c.dropUnusedRoles()
	}
	if over := b.used.Load() - keep; over > 0 {
		type aged struct {
			c   *Cache
			u   *userEntry
			age uint32
		}
		var all []aged
		for _, c := range caches {
			c.users.Range(func(_ string, u *userEntry) bool {
				all = append(all, aged{c, u, u.used.Load()})
				return true
			})
		}
		slices.SortFunc(all, func(a, b aged) int { return cmp.Compare(a.age, b.age) })
		for _, a := range all[:min(int(over), len(all))] {
			a.c.dropUser(a.u)
		}
		for _, c := range caches {
			c.dropUnusedRoles()
		}
	}
	b.clock.Add(1)
}

// dropUser drops u if it is still the user's entry.
func (c *Cache) dropUser(u *userEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	deleted := false
	c.users.Compute(u.name, func(old *userEntry, loaded bool) (*userEntry, bool) {
		deleted = loaded && old == u
		return old, !loaded || deleted
	})
	if deleted {
		c.budget.add(-1)
	}
}

// dropUnusedRoles drops the role sets no cached user points at. A set
// being attached to a user by a build right now may go too: it is then
// dead, and that user looks it up again on its next check.
func (c *Cache) dropUnusedRoles() {
	c.mu.Lock()
	defer c.mu.Unlock()
	inUse := make(map[*roleEntry]struct{}, c.roles.Size())
	c.users.Range(func(_ string, u *userEntry) bool {
		for _, r := range u.global {
			inUse[r] = struct{}{}
		}
		for _, rs := range u.byScope {
			for _, r := range rs {
				inUse[r] = struct{}{}
			}
		}
		return true
	})
	c.roles.Range(func(_ string, r *roleEntry) bool {
		if _, ok := inUse[r]; !ok {
			c.killLocked(r, true)
		}
		return true
	})
}
