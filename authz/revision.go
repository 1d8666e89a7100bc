package authz

import "sync"

// revisions tracks which store revision a client's cache reflects.
//
// Every write bumps the client's revision in the store. Our own writes
// already invalidated what they touched, so seeing their revisions later
// (in a notification or a periodic check) must not flush the cache again;
// any other revision is someone else's change, and flushes it. A write
// claims its revision inside its transaction, before commit, because its
// NOTIFY may reach the listener before the writer runs again; no one else
// can take that number while the transaction holds the revision row.
type revisions struct {
	mu    sync.Mutex
	known int64              // every revision up to here is reflected
	local map[int64]struct{} // our own revisions above known, waiting for the gap below to close
	// mine: our recent revisions (at most maxMine), so that a read of the
	// store older than our latest writes, which shows a revision below
	// known, is recognised as nothing new rather than a store gone back.
	// Each maps to its claim's sequence number; recent holds the last
	// maxMine claims in order (a ring once full), so forgetting the oldest
	// costs O(1) per write rather than a sweep of the map.
	mine   map[int64]uint64
	recent []int64
	claims uint64 // claims so far: the next claim's sequence number
}

// maxLocalRevisions bounds the revisions kept above a gap; maxMine the
// recent revisions remembered as ours.
const (
	maxLocalRevisions = 1024
	maxMine           = 4096
)

// ours claims a revision produced by our own write, inside the write's
// transaction; withdraw gives it back when the transaction fails. It
// reports true when the bookkeeping overflowed (many of our writes above a
// gap nobody observed, as on a client that only writes while another
// replica writes too) and was reset: the caller must flush.
func (r *revisions) ours(rev int64) (flush bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.local == nil {
		r.local, r.mine = map[int64]struct{}{}, map[int64]uint64{}
	}
	r.remember(rev)
	if rev <= r.known {
		return false
	}
	r.local[rev] = struct{}{}
	r.absorb()
	if len(r.local) > maxLocalRevisions {
		clear(r.local)
		r.known = rev
		return true
	}
	return false
}

// remember records rev as one of our recent revisions, forgetting the
// oldest once maxMine are kept. A revision withdrawn and claimed again
// appears twice in recent; only its latest claim's slot removes it.
func (r *revisions) remember(rev int64) {
	seq := r.claims
	r.claims++
	if len(r.recent) < maxMine {
		r.recent = append(r.recent, rev)
	} else {
		slot := seq % maxMine
		if old := r.recent[slot]; r.mine[old] == seq-maxMine {
			delete(r.mine, old)
		}
		r.recent[slot] = rev
	}
	r.mine[rev] = seq
}

// withdraw forgets a claimed revision whose transaction did not commit.
func (r *revisions) withdraw(rev int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.local, rev)
	delete(r.mine, rev)
	if r.known >= rev {
		r.known = rev - 1
	}
}

// maxForeign bounds the foreign revisions observe lists for a targeted
// invalidation; more than that, and the cache is flushed instead.
const maxForeign = 256

// observe takes a revision read from the store and reports whether the
// cache is stale: whether a revision up to it is not ours. foreign lists
// those revisions, for the caller to look up what they changed; nil with
// stale true means the caller must flush everything (too many to list, or
// the store went back). After a stale answer, everything up to rev counts
// as reflected: the caller must invalidate before it relies on the cache.
func (r *revisions) observe(rev int64) (stale bool, foreign []int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.absorb()
	if rev == r.known || rev < r.known && r.allMine(rev) {
		// Up to date, or a read older than our own latest writes.
		return false, nil
	}
	if rev > r.known && rev-r.known <= maxForeign {
		foreign = []int64{} // not nil: a list, even if every one is ours
		for k := r.known + 1; k <= rev; k++ {
			if _, ours := r.mine[k]; !ours {
				foreign = append(foreign, k)
			}
		}
	}
	// Above known with a gap not ours: someone else wrote. Below known and
	// not explained by our writes: the store went back (restored, or a new
	// database), and foreign stays nil: flush. Our remembered revisions are
	// forgotten then, since others may now write the same numbers.
	if rev < r.known {
		clear(r.mine)
		r.recent = r.recent[:0]
	}
	r.known = rev
	for k := range r.local {
		if k <= rev {
			delete(r.local, k)
		}
	}
	return true, foreign
}

// allMine reports whether every revision in (rev, known] is one of ours.
func (r *revisions) allMine(rev int64) bool {
	if int64(len(r.mine)) < r.known-rev {
		return false
	}
	for k := rev + 1; k <= r.known; k++ {
		if _, ok := r.mine[k]; !ok {
			return false
		}
	}
	return true
}

func (r *revisions) absorb() {
	for {
		if _, ok := r.local[r.known+1]; !ok {
			return
		}
		delete(r.local, r.known+1)
		r.known++
	}
}
