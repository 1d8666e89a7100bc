package authz

import "sync"

// revisions tracks which store revision a client's cache reflects.
//
// Every write bumps the client's revision in the store. Our own writes
// already invalidated what they touched, so seeing their revisions later
// (in a notification or a periodic check) must not flush the cache again;
// any other revision is someone else's change, and flushes it. Writes of
// one process commit concurrently and report their revisions out of order,
// so the revisions seen here but not yet contiguous are kept aside until
// the gap closes.
type revisions struct {
	mu    sync.Mutex
	known int64              // every revision up to here is reflected
	local map[int64]struct{} // our own revisions above known
	// claimed: our revisions whose transactions have not committed yet. A
	// check that reads the store meanwhile sees a revision below known;
	// when the gap is all ours, nothing is stale.
	claimed map[int64]struct{}
}

// ours claims a revision produced by our own write, inside the write's
// transaction; withdraw gives it back when the transaction fails. It
// reports true when the bookkeeping overflowed (many of our writes above a
// gap nobody observed, as on a client that only writes while another
// replica writes too) and was reset: the caller must flush.
func (r *revisions) ours(rev int64) (flush bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if rev <= r.known {
		return false
	}
	if r.local == nil {
		r.local, r.claimed = map[int64]struct{}{}, map[int64]struct{}{}
	}
	r.local[rev] = struct{}{}
	r.claimed[rev] = struct{}{}
	r.absorb()
	if len(r.local) > maxLocalRevisions {
		clear(r.local)
		r.known = rev
		return true
	}
	return false
}

// maxLocalRevisions bounds the revisions kept above a gap.
const maxLocalRevisions = 1024

// committed marks a claimed revision as in the store.
func (r *revisions) committed(rev int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.claimed, rev)
}

// withdraw forgets a claimed revision whose transaction did not commit.
func (r *revisions) withdraw(rev int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.local, rev)
	delete(r.claimed, rev)
	if r.known >= rev {
		r.known = rev - 1
	}
}

// observe takes the store's current revision and reports whether the
// cache must be flushed: whether a revision up to it is not ours. After a
// true answer the caller flushes, and everything up to rev is reflected.
func (r *revisions) observe(rev int64) (stale bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.absorb()
	if rev == r.known || rev < r.known && r.allClaimed(rev) {
		return false
	}
	// rev above known with a gap not ours: someone else wrote. rev below
	// known: the store went back (restored, or a new database): flush too.
	r.known = rev
	for k := range r.local {
		if k <= rev {
			delete(r.local, k)
		}
	}
	for k := range r.claimed {
		if k <= rev {
			delete(r.claimed, k)
		}
	}
	return true
}

// allClaimed reports whether every revision in (rev, known] is one of our
// uncommitted claims.
func (r *revisions) allClaimed(rev int64) bool {
	if int64(len(r.claimed)) < r.known-rev {
		return false
	}
	for k := rev + 1; k <= r.known; k++ {
		if _, ok := r.claimed[k]; !ok {
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
