package cache

import (
	"hash/maphash"
	"slices"
)

// What an entry is counted as in the budget: the bytes of the names it
// holds plus a fixed overhead per entry and per element, close to what the
// Go runtime spends on them (string headers, map slots, the struct).
const (
	userBytes    = 160 // a user entry: struct, map slot, name header
	roleBytes    = 160 // a role entry: struct, map slot, name header
	setBytes     = 96  // a permission set: struct and map header
	elemBytes    = 40  // one permission in a set: string header, map slot
	refBytes     = 8   // one pointer to a role entry in a user entry
	sourceBytes  = 16  // one source name's header in a role entry
	memoElemSize = 32  // one permission in a user's merged set (names shared)
)

// permSet is one distinct effective permission set. Role entries with
// the same effective set (a role and the roles that inherit from it and
// add nothing, or unrelated roles granted alike) share one permSet, so a
// wide fan-out of roles over one large set holds the set once.
type permSet struct {
	perms map[string]struct{} // immutable once built
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
	s := &permSet{perms: make(map[string]struct{}, len(perms)), hash: hash, bytes: setBytes}
	for _, p := range perms {
		s.perms[p] = struct{}{}
		s.bytes += int64(len(p)) + elemBytes
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

// findSetLocked returns the interned set equal to perms, or nil.
func (c *Cache) findSetLocked(perms []string, hash uint64) *permSet {
	for _, s := range c.sets[hash] {
		if s.holds(perms) {
			return s
		}
	}
	return nil
}

// retainSetLocked makes s (equal to perms) interned and counts one more
// role entry using it; it returns the set to use (an identical one
// already interned, or s) and the bytes newly held.
func (c *Cache) retainSetLocked(s *permSet, perms []string) (*permSet, int64) {
	for _, t := range c.sets[s.hash] {
		if t == s || t.holds(perms) {
			t.refs++
			return t, 0
		}
	}
	s.refs = 1
	c.sets[s.hash] = append(c.sets[s.hash], s)
	return s, s.bytes
}

// releaseSetLocked counts one role entry fewer using s, and forgets s
// (giving its bytes back) when none is left.
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

// memo is a user's global permissions in one map: the one set of its
// roles when they all share it (no copy), their union otherwise; owned is
// the bytes of a union the entry holds alone.
func memo(rs []*roleEntry) (perms map[string]struct{}, owned int64) {
	var sets []*permSet
	n := 0
	for _, r := range rs {
		if len(r.set.perms) > 0 && !slices.Contains(sets, r.set) {
			sets = append(sets, r.set)
			n = max(n, len(r.set.perms)) // a hint: the union is at least this
		}
	}
	switch len(sets) {
	case 0:
		return nil, 0
	case 1:
		return sets[0].perms, 0
	}
	perms = make(map[string]struct{}, n)
	for _, s := range sets {
		for p := range s.perms {
			perms[p] = struct{}{}
		}
	}
	return perms, setBytes + int64(len(perms))*memoElemSize
}
