package cache

import (
	"fmt"
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// indexed is a table holding an entry for each name, grown as the cache
// grows it: made anew, twice the names, when put finds no room.
func indexed(names ...string) (*userIndex, map[string]*userEntry) {
	x := newUserIndex(0)
	all := map[string]*userEntry{}
	for _, n := range names {
		u := newUserEntry(n, nil, nil, nil)
		all[n] = u
		if !x.put(u) {
			x = regrow(all)
		}
	}
	return x, all
}

func regrow(all map[string]*userEntry) *userIndex {
	x := newUserIndex(len(all))
	for _, u := range all {
		if !x.put(u) {
			panic("a new table has no room")
		}
	}
	return x
}

// Names short and long (past nameInline), the empty one, names that are
// prefixes of each other and names with NUL bytes: each finds its own
// entry, and nothing else finds one.
func TestIndexFinds(t *testing.T) {
	names := []string{"", "a", "ab", "a\x00", "\x00", strings.Repeat("x", nameInline), strings.Repeat("x", nameInline+1),
		strings.Repeat("y", 300), strings.Repeat("y", 300-256), "sara@example.com", "4f9a1c52-6d3e-4b7a-9c1e-2a8b5d7e0f31"}
	for i := range 500 {
		names = append(names, fmt.Sprintf("user-%d", i))
	}
	x, all := indexed(names...)
	for _, n := range names {
		if u := x.find(n); u != all[n] {
			t.Fatalf("find(%q) = %v, want its entry", n, u)
		}
		if u := all[n]; u.name != n {
			t.Fatalf("the entry of %q is named %q", n, u.name)
		}
	}
	for _, n := range []string{"b", "a\x00\x00", strings.Repeat("x", nameInline-1), strings.Repeat("y", 299), "user-500", "user-"} {
		if u := x.find(n); u != nil {
			t.Fatalf("find(%q) = the entry of %q, want none", n, u.name)
		}
	}
}

// A name removed is not found; put again, it is, in a tombstone's slot
// when one is on its way, so that removing and adding names forever does
// not fill the table.
func TestIndexRemoveAndTombstones(t *testing.T) {
	names := make([]string, 40)
	for i := range names {
		names[i] = fmt.Sprintf("user-%d", i)
	}
	x, all := indexed(names...)
	size := len(x.slots)
	for round := range 1000 {
		n := names[round%len(names)]
		x.remove(all[n])
		if u := x.find(n); u != nil {
			t.Fatalf("round %d: %q found after its removal", round, n)
		}
		all[n] = newUserEntry(n, nil, nil, nil)
		if !x.put(all[n]) {
			t.Fatalf("round %d: no room for %q in a table of %d slots holding %d names", round, n, len(x.slots), len(names))
		}
		if u := x.find(n); u != all[n] {
			t.Fatalf("round %d: %q not found after it was put back", round, n)
		}
	}
	if len(x.slots) != size || x.taken > len(names)+len(names)/2 {
		t.Fatalf("after 1,000 removals and puts of %d names: %d slots (from %d), %d taken", len(names), len(x.slots), size, x.taken)
	}
	// Replacing a name's entry keeps its slot.
	taken := x.taken
	u := newUserEntry(names[3], nil, nil, nil)
	x.put(u)
	if x.find(names[3]) != u || x.taken != taken {
		t.Fatalf("a replaced entry: found %v, %d slots taken (was %d)", x.find(names[3]) == u, x.taken, taken)
	}
}

// Through the cache: a table that fills is made anew with room, and
// every user stays found; a flush empties it.
func TestIndexGrowsWithTheCache(t *testing.T) {
	s := newFakeStore()
	s.grant("r", "p", true)
	for i := range 1000 {
		s.member(fmt.Sprintf("user-%d", i), "r", true)
	}
	c := newTestCache(s)
	for i := range 1000 {
		allowedIs(t, c, fmt.Sprintf("user-%d", i), "", "p", true)
	}
	x := c.index.Load()
	if len(x.slots) < 1000*4/3 || x.taken != 1000 {
		t.Fatalf("1,000 users in a table of %d slots, %d taken", len(x.slots), x.taken)
	}
	for i := range 1000 {
		if u := x.find(fmt.Sprintf("user-%d", i)); u == nil || u.gone.Load() {
			t.Fatalf("user-%d not in the index", i)
		}
	}
	c.InvalidateUser("user-7")
	if u := c.index.Load().find("user-7"); u != nil {
		t.Fatal("an invalidated user is still in the index")
	}
	c.Flush()
	if u := c.index.Load().find("user-8"); u != nil {
		t.Fatal("a user is still in the index after a flush")
	}
}

// Readers without a lock, while a writer under a lock puts, replaces and
// removes: a reader finds its own name's entry or none, never another's
// (go test -race).
func TestIndexConcurrentReaders(t *testing.T) {
	names := make([]string, 200)
	for i := range names {
		names[i] = fmt.Sprintf("user-%d", i)
	}
	var mu sync.Mutex
	var cur atomic.Pointer[userIndex]
	x, all := indexed(names[:100]...)
	cur.Store(x)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var found atomic.Int64
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				n := names[i%len(names)]
				if u := cur.Load().find(n); u != nil {
					if u.name != n {
						t.Errorf("find(%q) = the entry of %q", n, u.name)
						return
					}
					found.Add(1)
				}
			}
		}()
	}
	for i := range 20000 {
		n := names[(i*7)%len(names)]
		mu.Lock()
		x := cur.Load()
		switch i % 3 {
		case 0, 1:
			all[n] = newUserEntry(n, nil, nil, nil)
			if !x.put(all[n]) {
				cur.Store(regrow(all))
			}
		case 2:
			if u, ok := all[n]; ok {
				x.remove(u)
				delete(all, n)
			}
		}
		mu.Unlock()
	}
	close(stop)
	wg.Wait()
	if found.Load() == 0 {
		t.Fatal("the readers found no entry at all")
	}
}

// Two names whose tags are equal (a hash collision, forced here by
// putting one's entry in the other's slot): the bytes decide, so the
// other name's entry is never the answer.
func TestIndexTagCollision(t *testing.T) {
	for _, pair := range [][2]string{
		{"sara", "jack"},
		{"a", "b"},
		{strings.Repeat("x", nameInline), strings.Repeat("y", nameInline)},
		{strings.Repeat("x", nameInline+1), strings.Repeat("x", nameInline) + "y"},
		{strings.Repeat("x", 40), strings.Repeat("x", 41)},
	} {
		x := newUserIndex(0)
		h := maphash.String(setSeed, pair[1])
		s := &x.slots[h&x.mask]
		s.u.Store(newUserEntry(pair[0], nil, nil, nil))
		s.tag.Store(indexTag(h, pair[1]))
		if u := x.find(pair[1]); u != nil {
			t.Fatalf("find(%q) = the entry of %q, whose slot has its tag", pair[1], u.name)
		}
		s.u.Store(newUserEntry(pair[1], nil, nil, nil))
		if u := x.find(pair[1]); u == nil || u.name != pair[1] {
			t.Fatalf("find(%q) missed its own entry", pair[1])
		}
	}
}

// The warm check reads one line of a user's entry: its marks, the name's
// bytes and the small set's filter. A field added before them that moved
// the filter into the next line would cost every check one more line.
func TestEntryFirstLine(t *testing.T) {
	var u userEntry
	if end := unsafe.Offsetof(u.small) + unsafe.Offsetof(u.small.bloom) + unsafe.Sizeof(u.small.bloom); end > 64 {
		t.Errorf("the filter ends at byte %d of the entry, past its first line", end)
	}
	if size := unsafe.Sizeof(u); size%64 != 0 {
		t.Errorf("an entry is %d bytes, not whole lines: the first line of most would be split", size)
	}
}
