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
}

// ours claims a revision produced by our own write, inside the write's
// transaction; withdraw gives it back when the transaction fails.
func (r *revisions) ours(rev int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if rev <= r.known {
		return
	}
	if r.local == nil {
		r.local = map[int64]struct{}{}
	}
	r.local[rev] = struct{}{}
	r.absorb()
}

// withdraw forgets a claimed revision whose transaction did not commit.
func (r *revisions) withdraw(rev int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.local, rev)
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
	if rev == r.known {
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
