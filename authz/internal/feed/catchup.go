package feed

import (
	"context"
	"fmt"
	"time"

	"github.com/rolegate/rolegate/authz/internal/observe"
	"github.com/rolegate/rolegate/storage"
)

// Reads that follow a write: a revision token names a state of a client;
// a read given one answers from state at least that new, even in a
// process whose cache has not heard of the write yet: it catches up
// first (reads the revision and drops what changed, as a check would).
// Strict consistency confirms before every check that the cache is at the
// store's revision.

// CatchUp brings fl's cache up to the store's revision of the client now,
// whatever its cache holds: it reads the revision and drops what changed
// since known, as Check does for one client. It returns the revision the
// cache then reflects. A cache already at want or beyond (want >= 0)
// returns at once: some check caught up meanwhile. An error (the store
// unreachable) leaves the cache as it was, and the caller must refuse
// rather than answer from it.
func (f *Feed) CatchUp(ctx context.Context, fl *Follower, want int64) (int64, error) {
	f.checking.Lock()
	defer f.checking.Unlock()
	known := fl.known.Load()
	if want >= 0 && known >= want {
		return known, nil
	}
	mark := fl.mark()
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	rev, err := storage.Revision(qctx, f.db, fl.Scope.NS)
	if err != nil {
		if ctx.Err() == nil {
			f.meter.StoreError(observe.StoreOpRevisionCheck)
		}
		return known, err
	}
	if rev != known {
		f.meter.Lag(f.dropChanged(qctx, fl, known, rev))
		fl.caughtUp(known, rev)
	}
	fl.followSince(mark)
	return fl.known.Load(), nil
}

// AtLeast makes fl's cache reflect at least revision want: when it is
// behind, it catches up now. A cache already there costs nothing.
// ErrInvalid when the store has not reached want.
func (f *Feed) AtLeast(ctx context.Context, fl *Follower, want int64) error {
	if fl.known.Load() >= want {
		return nil
	}
	got, err := f.CatchUp(ctx, fl, want)
	if err != nil {
		return err
	}
	if got < want {
		return fmt.Errorf("%w: it names revision %d, and the store is at %d", ErrInvalid, want, got)
	}
	return nil
}

// Confirm is strict consistency's step before every check: one read of
// the client's revision, and a catch-up when the cache is not at it.
func (f *Feed) Confirm(ctx context.Context, fl *Follower) error {
	rev, err := storage.Revision(ctx, f.db, fl.Scope.NS)
	if err != nil {
		if ctx.Err() == nil {
			f.meter.StoreError(observe.StoreOpRevisionCheck)
		}
		return err
	}
	known := fl.known.Load()
	switch {
	case known == rev:
		return nil
	case known > rev:
		// The store went back (restored): start again from what it says.
		_, err = f.CatchUp(ctx, fl, -1)
	default:
		_, err = f.CatchUp(ctx, fl, rev)
	}
	return err
}

// Revision is the store's current revision of fl's client (one read by
// primary key).
func (f *Feed) Revision(ctx context.Context, fl *Follower) (int64, error) {
	return storage.Revision(ctx, f.db, fl.Scope.NS)
}

// Committed is a write's step after its commit: the write made revisions
// first..rev and has dropped from fl's cache what it changed, so the
// cache reflects them too when it reflected everything before them. Every
// storage.ChangesPruneEvery revisions it prunes the change log (after
// commit, so the revision row is not held meanwhile; a failure only
// leaves a few more entries for the next prune).
func (f *Feed) Committed(ctx context.Context, fl *Follower, first, rev int64) {
	f.waits.wake(fl.Scope.NS)
	fl.known.CompareAndSwap(first-1, rev)
	if rev/storage.ChangesPruneEvery != (first-1)/storage.ChangesPruneEvery {
		if err := storage.PruneChanges(ctx, f.db, fl.Scope.NS, rev); err != nil {
			f.log.Debug("change log not pruned", "error", err)
		}
	}
}

// Lag reads the store's revision of every follower whose cache holds
// something (as the periodic check does) and returns the largest count of
// revisions a cache has not seen and this process did not write.
func (f *Feed) Lag(ctx context.Context) (int64, error) {
	var nss []string
	followers := map[string]*Follower{}
	for fl := range f.followers {
		if fl.holds() {
			nss = append(nss, fl.Scope.NS)
			followers[fl.Scope.NS] = fl
		}
	}
	revs, err := storage.Revisions(ctx, f.db, nss)
	if err != nil {
		return 0, err
	}
	var lag int64
	for ns, fl := range followers {
		lag = max(lag, f.unseen(ctx, fl, revs[ns]))
	}
	return lag, nil
}

// unseen counts the revisions up to rev (read from the store) that fl's
// cache has not seen and this process did not write, from the change log
// (every revision above the cache's when the log cannot tell).
func (f *Feed) unseen(ctx context.Context, fl *Follower, rev int64) int64 {
	known := fl.known.Load()
	n := rev - known
	if n <= 0 {
		return 0
	}
	if n <= maxUnseen {
		if ch, err := storage.ChangedUsers(ctx, f.db, fl.Scope, f.writer, known, rev); err == nil && ch.Complete {
			return ch.Others
		}
	}
	return n
}
