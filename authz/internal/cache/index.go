package cache

import (
	"hash/maphash"
	"sync/atomic"
)

// userIndex is the warm check's way from a user's name to its entry: an
// open-addressed table of (tag, entry) slots, four to a cache line, kept
// beside the users map and changed in place, under Cache.mu, wherever
// that map is. A check reads it without a lock: one slot's line, then
// the entry's first line, where the name's bytes are compared (see
// userEntry.key).
//
// It replaced a plain Go map copied from the users map now and then.
// Under sustained changes that copy lagged: every entry renewal replaced
// since the last copy cost a check the old entry's line and a step to
// its successor, and the copy was made again for each few thousand
// replaced. A slot changed in place names the successor at once.
//
// A slot's tag is the name's hash with its length in the low byte (0xff
// past nameInline); 0 marks a slot never used. A removed entry leaves
// its slot's tag behind with no entry (a tombstone), so that probes for
// the names after it go on; tombstones are used again, and the table is
// made anew, from the users map, before three slots in four are taken.
type userIndex struct {
	slots []indexSlot // a power of two of them
	mask  uint64
	taken int // slots with a tag, tombstones included (under Cache.mu)
}

type indexSlot struct {
	tag atomic.Uint64
	u   atomic.Pointer[userEntry]
}

// indexMin is the fewest slots a table has.
const indexMin = 64

// newUserIndex is an empty table with room for n names.
func newUserIndex(n int) *userIndex {
	size := indexMin
	for size < 2*n {
		size *= 2
	}
	return &userIndex{slots: make([]indexSlot, size), mask: uint64(size - 1)}
}

// indexTag is the tag of a name whose hash is h: never 0.
func indexTag(h uint64, name string) uint64 {
	l := uint64(0xff)
	if len(name) <= nameInline {
		l = uint64(len(name))
	}
	return (h|1<<63)&^0xff | l
}

// find is the entry named name, nil when the table has none (it may
// have one that is gone: the caller looks).
func (x *userIndex) find(name string) *userEntry {
	h := maphash.String(setSeed, name)
	tag := indexTag(h, name)
	for i := h & x.mask; ; i = (i + 1) & x.mask {
		s := &x.slots[i]
		t := s.tag.Load()
		if t == 0 {
			return nil
		}
		if t == tag {
			if u := s.u.Load(); u != nil && u.named(name) {
				return u
			}
		}
	}
}

// named reports whether u is the entry of name, whose tag matched u's:
// equal tags of names up to nameInline long mean equal lengths, so their
// bytes are compared in the entry's first line alone.
func (u *userEntry) named(name string) bool {
	if len(name) <= nameInline {
		return string(u.key[:len(name)]) == name
	}
	return u.name == name
}

// put makes u the entry of its name; false when that needs a slot the
// table has no room for (the caller makes a larger one). Under Cache.mu.
func (x *userIndex) put(u *userEntry) bool {
	h := maphash.String(setSeed, u.name)
	tag := indexTag(h, u.name)
	var free *indexSlot // the first tombstone on the way
	for i := h & x.mask; ; i = (i + 1) & x.mask {
		s := &x.slots[i]
		t := s.tag.Load()
		if t == 0 {
			if free == nil {
				if (x.taken+1)*4 > len(x.slots)*3 {
					return false
				}
				x.taken++
				free = s
			}
			// The entry before the tag: a check that sees the tag sees
			// the entry (or the tombstone's nil, and goes on).
			free.u.Store(u)
			free.tag.Store(tag)
			return true
		}
		cur := s.u.Load()
		if cur == nil {
			if free == nil {
				free = s
			}
			continue
		}
		if t == tag && cur.named(u.name) {
			s.u.Store(u)
			return true
		}
	}
}

// remove takes u out of the table if it is there. Under Cache.mu.
func (x *userIndex) remove(u *userEntry) {
	h := maphash.String(setSeed, u.name)
	for i := h & x.mask; ; i = (i + 1) & x.mask {
		s := &x.slots[i]
		if s.tag.Load() == 0 {
			return
		}
		if s.u.Load() == u {
			s.u.Store(nil)
			return
		}
	}
}

// storeUserLocked makes u the user's entry, in the users map and the
// index. Under c.mu, like every write to either.
func (c *Cache) storeUserLocked(u *userEntry) (old *userEntry, had bool) {
	old, had = c.users.LoadAndStore(u.name, u)
	if !c.index.Load().put(u) {
		c.reindexLocked()
	}
	return old, had
}

// deleteUserLocked takes u out of the users map and the index, if it is
// still the user's entry, and marks it gone. Under c.mu.
func (c *Cache) deleteUserLocked(u *userEntry) bool {
	// A Compute would store the entry found again under u's name, a key
	// pointing into u (see userEntry.key); every write to the users map
	// is made under c.mu, so a load and a delete do.
	if cur, ok := c.users.Load(u.name); !ok || cur != u {
		return false
	}
	c.users.Delete(u.name)
	c.index.Load().remove(u)
	u.gone.Store(true)
	return true
}

// reindexLocked makes the index anew from the users map, with room to
// grow: when the old one fills up with names and tombstones. Under c.mu.
func (c *Cache) reindexLocked() {
	x := newUserIndex(c.users.Size())
	c.users.Range(func(_ string, u *userEntry) bool {
		x.put(u)
		return true
	})
	c.index.Store(x)
}
