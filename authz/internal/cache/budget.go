package cache

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
)

// Budget bounds what every cache registered with it holds, together: a
// number of entries (users and role sets) and a number of bytes (the names
// the entries hold plus a fixed overhead per entry and per permission; a
// permission set shared by several roles counts once). A flood of client
// keys, user names or large sets cannot grow memory past it.
//
// Past either bound, a sweep takes from the caches holding the most, down
// to 90% of the bound: it finds the level at which trimming every cache
// above it frees enough, and drops the least recently used users of those
// caches down to that level, then the role sets no cached user points at.
// A client cannot push out the entries of a client holding less than it.
type Budget struct {
	maxEntries, maxBytes int64
	entries, bytes       atomic.Int64
	clock                atomic.Uint32 // advanced by each sweep; entries record it on use

	mu     sync.Mutex // guards caches
	caches map[*Cache]struct{}
	sweep  sync.Mutex // one sweep at a time; checks keep running meanwhile
}

// NewBudget returns a budget of the given number of entries and bytes
// (each at least 1).
func NewBudget(entries int, bytes int64) *Budget {
	return &Budget{maxEntries: int64(max(entries, 1)), maxBytes: max(bytes, 1), caches: map[*Cache]struct{}{}}
}

// Used is the number of entries counted now.
func (b *Budget) Used() int { return int(b.entries.Load()) }

// UsedBytes is the number of bytes counted now.
func (b *Budget) UsedBytes() int64 { return b.bytes.Load() }

// Bytes is the bytes the cache's entries are counted as.
func (c *Cache) Bytes() int64 { return c.bytes.Load() }

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

// count records that c holds entries more entries and bytes more bytes
// (negative: fewer). Callers hold c.mu, so that a flush can give back
// exactly what the cache holds.
func (b *Budget) count(c *Cache, entries, bytes int64) {
	c.entries.Add(entries)
	c.bytes.Add(bytes)
	b.entries.Add(entries)
	b.bytes.Add(bytes)
}

// settle sweeps when the budget is past a bound. It runs in the build that
// went over, without c.mu: the cost falls on misses, never on the hit
// path.
func (b *Budget) settle() {
	if b.entries.Load() > b.maxEntries || b.bytes.Load() > b.maxBytes {
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

	// Role sets nobody points at go first: they cost no user a miss.
	for _, c := range caches {
		c.dropUnusedRoles()
	}
	// Entries and bytes in turn; a few rounds, since dropping users frees
	// role sets only once no other user points at them.
	for range 4 {
		overBytes := b.bytes.Load() - b.maxBytes*9/10
		overEntries := b.entries.Load() - b.maxEntries*9/10
		switch {
		case overBytes > 0:
			trim(caches, overBytes, func(c *Cache) int64 { return c.bytes.Load() }, func(u *userEntry) int64 { return u.size() })
		case overEntries > 0:
			trim(caches, overEntries, func(c *Cache) int64 { return c.entries.Load() }, func(*userEntry) int64 { return 1 })
		default:
			b.clock.Add(1)
			return
		}
		for _, c := range caches {
			c.dropUnusedRoles()
		}
	}
	b.clock.Add(1)
}

// trim frees about over (in the unit of size) from the caches holding the
// most: it finds the level such that bringing every cache above it down
// to it frees over, and drops each such cache's least recently used users
// until the cache is at that level (at least one user each).
func trim(caches []*Cache, over int64, size func(*Cache) int64, userSize func(*userEntry) int64) {
	sizes := make([]int64, len(caches))
	for i, c := range caches {
		sizes[i] = size(c)
	}
	sorted := slices.Clone(sizes)
	slices.SortFunc(sorted, func(a, b int64) int { return cmp.Compare(b, a) }) // largest first
	// Water level: with the k largest brought down to level, the freed
	// amount is sum(sorted[:k]) - k*level.
	level, sum := int64(0), int64(0)
	for k := 1; k <= len(sorted); k++ {
		sum += sorted[k-1]
		next := int64(0)
		if k < len(sorted) {
			next = sorted[k]
		}
		if sum-int64(k)*next >= over {
			level = max((sum-over)/int64(k), 0)
			break
		}
	}
	for i, c := range caches {
		if sizes[i] > level {
			c.dropOldest(sizes[i]-level, userSize)
		}
	}
}

// dropOldest drops the cache's least recently used users until about
// free (in userSize's unit) has gone, at least one.
func (c *Cache) dropOldest(free int64, userSize func(*userEntry) int64) {
	type aged struct {
		u   *userEntry
		age uint32
	}
	var all []aged
	c.users.Range(func(_ string, u *userEntry) bool {
		all = append(all, aged{u, u.used.Load()})
		return true
	})
	slices.SortFunc(all, func(a, b aged) int { return cmp.Compare(a.age, b.age) })
	for _, a := range all {
		if free <= 0 {
			break
		}
		c.dropUser(a.u)
		free -= userSize(a.u)
	}
}

// dropUser drops u if it is still the user's entry.
func (c *Cache) dropUser(u *userEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.deleteUserLocked(u) {
		c.budget.count(c, -1, -u.size())
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
		for _, r := range u.scopedRoles {
			inUse[r] = struct{}{}
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
