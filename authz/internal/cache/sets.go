package cache

import (
	"hash/maphash"
	"slices"
	"sync"
)

// What an entry is counted as in the budget: the bytes of the names it
// holds plus a fixed overhead per entry, and for each map what the Go
// runtime's map of that many elements takes (mapBytes).
const (
	userBytes   = 160 // a user entry: struct, map slot, name header
	roleBytes   = 160 // a role entry: struct, map slot, name header
	setBytes    = 48  // a permission set's struct
	refBytes    = 8   // one pointer to a role entry in a user entry
	memberBytes = 16  // a user entry's place in a role entry's members, slack included (invalidate.go)
	moreBytes   = 8   // one more map a user's check looks in
	sourceBytes = 16  // one source name's header in a role entry
)

// mapBytes is what a map[string]struct{} made for n elements holds, its
// elements' string headers included, their bytes not: the runtime's
// swiss tables (Go 1.24) have room for n at a load of 7/8 in a power of
// two of 8-slot groups, each slot a string header and a control byte,
// about 32 bytes a slot once the tables and the allocator's rounding are
// counted (measured: 259 bytes for 1 element, 1,880 for 32, 109,264 for
// 3,000; this gives 256, 2,048 and 131,072).
func mapBytes(n int) int64 {
	slots := int64(8)
	for slots*7/8 < int64(n) {
		slots *= 2
	}
	return 32 * slots
}

// permSet is one distinct set of permissions: a role's own grants, or the
// union of several small ones. Sets are interned by content: every role
// entry built from a role with the same grants (the role and every role
// inheriting it, or unrelated roles granted alike) shares one permSet, so
// a wide fan-out of roles over one large set holds the set once.
type permSet struct {
	perms map[string]struct{} // immutable once built
	// small is the set in the warm check's form when it holds at most
	// mergeMax names (nil for a larger set): a user whose first set this
	// is looks in it there.
	small *small
	hash  uint64
	bytes int64
	refs  int // published role entries using the set; guarded by Cache.mu
}

var setSeed = maphash.MakeSeed()

// sortedSet returns perms sorted and distinct, with their hash, the key
// under which identical sets are interned. perms is not modified (a
// Loader may share it between roles): it is returned as it is when
// already sorted and distinct, as the store gives it, else sorted in a
// copy.
func sortedSet(perms []string) ([]string, uint64) {
	for i := 1; i < len(perms); i++ {
		if perms[i-1] >= perms[i] {
			perms = slices.Compact(slices.Sorted(slices.Values(perms)))
			break
		}
	}
	var h maphash.Hash
	h.SetSeed(setSeed)
	for _, p := range perms {
		h.WriteString(p)
		h.WriteByte(0)
	}
	return perms, h.Sum64()
}

func newPermSet(perms []string, hash uint64) *permSet {
	s := &permSet{perms: make(map[string]struct{}, len(perms)), hash: hash, bytes: setBytes + mapBytes(len(perms))}
	for _, p := range perms {
		s.perms[p] = struct{}{}
		s.bytes += int64(len(p))
	}
	if len(perms) <= mergeMax {
		s.small = newSmall(perms)
		s.bytes += smallBytes(len(perms))
	}
	return s
}

// holds reports whether s is exactly the set perms (sorted, distinct).
func (s *permSet) holds(perms []string) bool {
	if len(s.perms) != len(perms) {
		return false
	}
	for _, p := range perms {
		if _, ok := s.perms[p]; !ok {
			return false
		}
	}
	return true
}

// equal reports whether s and t hold the same permissions.
func (s *permSet) equal(t *permSet) bool {
	if s.hash != t.hash || len(s.perms) != len(t.perms) {
		return false
	}
	for p := range t.perms {
		if _, ok := s.perms[p]; !ok {
			return false
		}
	}
	return true
}

// findSetLocked returns the interned set equal to perms, or nil.
func (c *Cache) findSetLocked(perms []string, hash uint64) *permSet {
	for _, s := range c.sets[hash] {
		if s.holds(perms) {
			return s
		}
	}
	return nil
}

// retainSetLocked makes s interned and counts one more role entry using
// it; it returns the set to use (an identical one already interned, or s)
// and the bytes newly held.
func (c *Cache) retainSetLocked(s *permSet) (*permSet, int64) {
	for _, t := range c.sets[s.hash] {
		if t == s || t.equal(s) {
			t.refs++
			return t, 0
		}
	}
	s.refs = 1
	c.sets[s.hash] = append(c.sets[s.hash], s)
	return s, s.bytes
}

// releaseSetsLocked counts one role entry fewer using each of sets, and
// forgets a set (giving its bytes back) when none is left.
func (c *Cache) releaseSetsLocked(sets []*permSet) {
	for _, s := range sets {
		c.releaseSetLocked(s)
	}
}

func (c *Cache) releaseSetLocked(s *permSet) {
	if s.refs--; s.refs > 0 {
		return
	}
	list := slices.DeleteFunc(c.sets[s.hash], func(t *permSet) bool { return t == s })
	if len(list) == 0 {
		delete(c.sets, s.hash)
	} else {
		c.sets[s.hash] = list
	}
	c.budget.count(c, 0, -s.bytes)
}

// mergeMax is the most names a merged map holds. A role's effective
// permissions are its own grants and those of every role it inherits
// from, and a user's are those of all its roles: rather than a copy of
// that union per role or per user, each entry keeps the grant sets it is
// made of, shared, and merges only as many of the smallest as fit in
// mergeMax names together (the most that a map of 64 slots holds), so
// that the warm check of a user in a few small roles is still one lookup.
// A large set is never copied: a copy per user of a set of 3,000 names
// was memory by memberships (3,497 users in a role of 3,000 permissions
// and in one of 1 held 3,497 copies, 256 MiB), and a copy per role memory
// by inheritance links (1,240 roles inheriting one of 5,000 names and
// adding one each). What an entry holds of its own is so at most mergeMax
// names, whatever the layout; a no looks in each set the entry keeps.
const mergeMax = 56

// unions are compose's scratch maps.
var unions = sync.Pool{New: func() any { return make(map[string]struct{}, mergeMax) }}

// compose splits distinct, non-empty sets into the ones kept as they are
// and those merged: it takes sets smallest first while their union stays
// within mergeMax names. merged is that union's names, nil when fewer than
// two sets were taken or when the largest taken holds all of it (it is
// then kept, and nothing is copied); kept are the other sets, largest
// first.
func compose(sets []*permSet) (merged []string, kept []*permSet) {
	if len(sets) < 2 {
		return nil, sets
	}
	sets = slices.Clone(sets)
	slices.SortStableFunc(sets, func(a, b *permSet) int { return len(a.perms) - len(b.perms) })
	// The union is counted in a scratch map, kept between calls: every
	// member of a changed role composes again, and a map of mergeMax
	// names each time was most of what a refresh allocated.
	union := unions.Get().(map[string]struct{})
	defer func() {
		clear(union)
		unions.Put(union)
	}()
	var taken []*permSet
	for _, s := range sets {
		if len(s.perms) > mergeMax {
			kept = append(kept, s)
			continue
		}
		add := 0
		for p := range s.perms {
			if _, ok := union[p]; !ok {
				add++
			}
		}
		if len(union)+add > mergeMax {
			kept = append(kept, s)
			continue
		}
		for p := range s.perms {
			union[p] = struct{}{}
		}
		taken = append(taken, s)
	}
	switch {
	case len(taken) < 2:
		kept = append(kept, taken...)
		merged = nil
	case len(taken[len(taken)-1].perms) == len(union):
		kept = append(kept, taken[len(taken)-1]) // it holds the others
		merged = nil
	default:
		merged = make([]string, 0, len(union))
		for p := range union {
			merged = append(merged, p)
		}
	}
	slices.SortStableFunc(kept, func(a, b *permSet) int { return len(b.perms) - len(a.perms) })
	return merged, kept
}

// setMemo remembers, during one read of several roles, the set made of
// each grants slice the Loader handed over, by the slice's first element:
// the store hands one slice per source to every role inheriting from it
// (600 roles inheriting one large role), and each is then sorted, hashed
// and looked up once, not once per role.
type setMemo map[*string]memoSet

type memoSet struct {
	n   int // the slice's length
	set *permSet
}

// roleParts is what a role entry keeps of its sources' grants (see
// compose): each source's set, interned by content (found interned, or
// made here, outside the lock, and interned when the entry is published),
// and the small ones merged into one, interned too.
func (c *Cache) roleParts(grants [][]string, memo setMemo) []*permSet {
	var own []*permSet
	for _, g := range grants {
		if len(g) == 0 {
			continue
		}
		s := c.grantSet(g, memo)
		if !slices.Contains(own, s) {
			own = append(own, s)
		}
	}
	merged, parts := compose(own)
	if merged != nil {
		perms, hash := sortedSet(merged)
		c.mu.Lock()
		s := c.findSetLocked(perms, hash)
		c.mu.Unlock()
		if s == nil {
			s = newPermSet(perms, hash)
		}
		parts = append(parts, s)
	}
	return parts
}

// grantSet is the set of one source's grants g (non-empty), from memo
// when an earlier role of the read had the same slice. A set already
// interned is shared, and the names just read are dropped.
func (c *Cache) grantSet(g []string, memo setMemo) *permSet {
	if m, ok := memo[&g[0]]; ok && m.n == len(g) {
		return m.set
	}
	perms, hash := sortedSet(g)
	c.mu.Lock()
	s := c.findSetLocked(perms, hash)
	c.mu.Unlock()
	if s == nil {
		s = newPermSet(perms, hash)
	}
	memo[&g[0]] = memoSet{n: len(g), set: s}
	return s
}

// userSets is what a user's check looks in for its global roles: merged,
// the names of the merged set (owned: their bytes, held by the entry
// alone), or else small, the largest set small enough to have that form,
// shared; then large, the sets left, largest first (nil for most users).
type userSets struct {
	merged []string
	small  *small
	large  []map[string]struct{}
	owned  int64
}

// mergeUser composes the sets of a user's global roles (see compose): the
// parts of all its roles, each once.
func mergeUser(rs []*roleEntry) userSets {
	var parts []*permSet
	for _, r := range rs {
		for _, p := range r.parts {
			if !slices.Contains(parts, p) {
				parts = append(parts, p)
			}
		}
	}
	merged, kept := compose(parts)
	var u userSets
	if merged != nil {
		u.merged = merged
		u.owned = smallBytes(len(merged)) - smallBytes(0)
	}
	for _, s := range kept { // largest first
		if u.merged == nil && u.small == nil && s.small != nil {
			u.small = s.small
			continue
		}
		u.large = append(u.large, s.perms)
	}
	return u
}
