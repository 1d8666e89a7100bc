package feed

import (
	"context"
	"crypto/rand"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/observe"
	"github.com/rolegate/rolegate/storage"
)

// Cache is a client's decision cache as the feed keeps it right
// (*cache.Cache).
type Cache interface {
	// InvalidateUser drops a user whose memberships changed;
	// InvalidateRole the sets built from a role whose grants or links
	// changed; DeleteRole a deleted role with its members' entries; Flush
	// everything.
	InvalidateUser(user string)
	InvalidateRole(role string)
	DeleteRole(role string)
	Flush()
	// Len, Roles and Building: the users and role sets cached, and the
	// builds reading the store now.
	Len() int
	Roles() int
	Building() int
}

// Follower is one client as the feed follows it. Set its fields before
// the feed sees it; Cache may be replaced only under Feed.Lock.
type Follower struct {
	Scope  storage.Scope
	Client string // the client's fingerprint, for the log
	Cache  Cache
	// known: the cache reflects every revision of the client up to here.
	// A check moves it to what the store says once it has dropped what
	// other writers changed; a write of this process moves it on by its
	// own revisions when they follow known directly (Feed.Committed).
	known atomic.Int64
	// replica: what reads from a standby need (see readreplica.go).
	replica replica
}

// Known is the revision up to which the cache reflects every change.
func (fl *Follower) Known() int64 { return fl.known.Load() }

// holds reports whether the cache holds or is building anything that
// other processes' changes could make stale (a build reading the store
// now could publish what a change made stale).
func (fl *Follower) holds() bool {
	return fl.Cache.Len() > 0 || fl.Cache.Roles() > 0 || fl.Cache.Building() > 0
}

// caughtUp records that the cache reflects every revision up to rev, read
// from the store by a check that began at known and has dropped what
// changed since. Meanwhile only this process's writes move known, each by
// one revision; when they carried it past rev it stays there. A store
// gone back (rev below known: restored, or a new database) starts again
// from what it says.
func (fl *Follower) caughtUp(known, rev int64) {
	if rev < known {
		fl.known.Store(rev)
		return
	}
	for {
		cur := fl.known.Load()
		if cur >= rev || fl.known.CompareAndSwap(cur, rev) {
			return
		}
	}
}

// Config is what a Feed is made of.
type Config struct {
	// DB is the store (the primary: revisions are read where they are
	// written).
	DB *bun.DB
	// Followers yields every client whose cache the feed keeps right.
	Followers func(yield func(*Follower) bool)
	// Notifier delivers the store's cues; nil: NewNotifier(DB, 0, Liveness).
	Notifier Notifier
	// Interval is the period of the revision check.
	Interval time.Duration
	// Liveness bounds a revision check's read of the store (0: 1 s): a
	// store that does not answer within it is taken for lost, and every
	// cache is flushed, so that a stalled connection ends the cache's
	// answers within Interval plus Liveness.
	Liveness time.Duration
	// Meter counts drops, store errors, lag and reconnections; nil counts
	// nothing.
	Meter *observe.Meters
	Log   *slog.Logger
}

// Feed keeps the decision caches of one process right when other
// processes write. Its methods are safe for concurrent use.
type Feed struct {
	db        *bun.DB
	followers func(yield func(*Follower) bool)
	notifier  Notifier
	interval  time.Duration
	liveness  time.Duration
	meter     *observe.Meters
	log       *slog.Logger
	// writer identifies this process's changes in the change log, so that
	// a check skips what this process's own writes dropped already.
	writer string

	// checking: one revision check (or catch-up) at a time. A check that
	// read an older revision must not observe after one that read a
	// newer, and a cache that has caught up has done its dropping too.
	checking sync.Mutex
	live     atomic.Bool // the subscription is live
	lost     atomic.Bool // a subscription was lost since the last live one
	first    chan error  // the first subscription's outcome, for the startup line
	// unanswered: the last revision check found the store not answering
	// (until one succeeds); reads on the primary are then bounded too
	// (Reader.onPrimary).
	unanswered atomic.Bool
	// waits: readers of the public change feed waiting for a namespace's
	// next change (Await).
	waits waiters
}

// New returns the feed of cfg; Poll and Listen run it.
func New(cfg Config) *Feed {
	f := &Feed{db: cfg.DB, followers: cfg.Followers, notifier: cfg.Notifier, interval: cfg.Interval,
		liveness: cfg.Liveness, meter: cfg.Meter, log: cfg.Log, writer: rand.Text(), first: make(chan error, 1)}
	if f.liveness <= 0 {
		f.liveness = time.Second
	}
	if f.notifier == nil {
		f.notifier = NewNotifier(cfg.DB, 0, f.liveness)
	}
	if f.log == nil {
		f.log = slog.Default()
	}
	return f
}

// Observe makes the feed count with m; call it before Poll and Listen
// run (the meters are made once the feed exists, which they read).
func (f *Feed) Observe(m *observe.Meters) { f.meter = m }

// Writer is this process's id in the change log (storage.Change.Writer),
// new at every New.
func (f *Feed) Writer() string { return f.writer }

// Listens reports whether the store announces writes (a listener runs).
func (f *Feed) Listens() bool { return f.notifier.Announces() }

// Live reports whether the listener's subscription is live.
func (f *Feed) Live() bool { return f.live.Load() }

// FirstOutcome delivers the outcome of the listener's first attempt to
// subscribe (nil: live); nil when the store announces nothing.
func (f *Feed) FirstOutcome() <-chan error {
	if !f.Listens() {
		return nil
	}
	return f.first
}

// Lock holds off every revision check and catch-up until Unlock, for a
// caller that replaces a follower's cache.
func (f *Feed) Lock()   { f.checking.Lock() }
func (f *Feed) Unlock() { f.checking.Unlock() }

// Poll runs the periodic revision check until ctx ends.
func (f *Feed) Poll(ctx context.Context) {
	t := time.NewTicker(f.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f.Check(ctx, nil)
		}
	}
}

// Listen follows the store's cues until ctx ends (at once when it
// announces nothing).
func (f *Feed) Listen(ctx context.Context) { f.notifier.Listen(ctx, f) }

var _ Handler = (*Feed)(nil)

// Subscribed: a live subscription makes the next cue count, and whatever
// happened while nobody listened is checked now.
func (f *Feed) Subscribed(ctx context.Context, err error) {
	// Live before the first outcome is told, so /ping agrees with the
	// startup line.
	f.live.Store(err == nil)
	select {
	case f.first <- err:
	default:
	}
	if err != nil {
		return
	}
	if f.lost.Swap(false) {
		f.meter.Reconnected()
	}
	f.Check(ctx, nil)
}

// Cue checks the namespace a write was announced for.
func (f *Feed) Cue(ctx context.Context, ns string) {
	f.waits.wake(ns)
	f.Check(ctx, []string{ns})
}

// Unsubscribed flushes every cache: what is written until the next
// subscription goes unheard.
func (f *Feed) Unsubscribed(err error, retry time.Duration) {
	f.live.Store(false)
	f.lost.Store(true)
	f.FlushAll("change listener lost")
	f.log.Warn("change listener reconnecting", "in", retry.String(), "error", err)
}

// Check compares the revisions of the given namespaces (nil: every
// follower) with the store and drops from each cache what moved. When
// the store cannot be read within the liveness bound, every cache is
// flushed.
func (f *Feed) Check(ctx context.Context, only []string) {
	f.checking.Lock()
	defer f.checking.Unlock()
	var nss []string
	followers := map[string]*Follower{}
	knowns, marks := map[string]int64{}, map[string]int64{}
	for fl := range f.followers {
		if only != nil && !slices.Contains(only, fl.Scope.NS) {
			continue
		}
		// An empty cache has nothing to keep right, unless an entry is
		// being built; it is compared once it holds something (a mismatch
		// then flushes, conservatively). Passing it over is a lapse for
		// reads from a standby (see readreplica.go).
		if !fl.holds() {
			fl.lapse()
			continue
		}
		nss = append(nss, fl.Scope.NS)
		followers[fl.Scope.NS] = fl
		// Before the store is read: a local write that commits
		// meanwhile moves known past the revision read, which must
		// not look like a store gone back (and flush the cache).
		knowns[fl.Scope.NS] = fl.known.Load()
		marks[fl.Scope.NS] = fl.mark()
	}
	qctx, cancel := context.WithTimeout(ctx, f.liveness)
	defer cancel()
	if len(nss) == 0 {
		if f.unanswered.Load() && only == nil && f.db.PingContext(qctx) == nil {
			f.unanswered.Store(false)
		}
		return
	}
	revs, err := storage.Revisions(qctx, f.db, nss)
	if err != nil {
		if ctx.Err() == nil {
			f.unanswered.Store(true)
			f.meter.StoreError(observe.StoreOpRevisionCheck)
			f.FlushAll("revision check failed")
		}
		return
	}
	f.unanswered.Store(false)
	for ns, fl := range followers {
		rev := revs[ns]
		if known := knowns[ns]; rev != known {
			f.meter.Lag(f.dropChanged(qctx, fl, known, rev))
			fl.caughtUp(known, rev)
		}
		fl.followSince(marks[ns])
	}
}

// maxUnseen bounds the revisions dropChanged reads from the change log; a
// cache further behind is flushed instead.
const maxUnseen = 256

// dropChanged drops from fl's cache what the revisions after known up to
// rev changed, according to the change log: the users whose memberships
// changed, the roles whose grants changed, the roles deleted (with their
// members); everything when the log names no one. The changes this
// process wrote (the log names its writer id) are left out: the write
// dropped what they changed already. Whatever cannot be read (too many
// revisions, entries pruned, the store failing, or a store gone back
// below known) flushes everything. It returns how many of the revisions
// were others' (all of them when it cannot tell).
func (f *Feed) dropChanged(ctx context.Context, fl *Follower, known, rev int64) (others int64) {
	// Before anything is dropped: a build that starts after a drop reads
	// no state older than what caused it, from a standby either.
	fl.Require(rev)
	if rev > known && rev-known <= maxUnseen {
		ch, err := storage.ChangedUsers(ctx, f.db, fl.Scope, f.writer, known, rev)
		if err == nil && ch.Complete {
			if !ch.All {
				for _, u := range ch.Users {
					fl.Cache.InvalidateUser(u)
					f.meter.Invalidated(observe.InvalidReplica)
				}
				for _, r := range ch.Roles {
					fl.Cache.InvalidateRole(r)
					f.meter.Invalidated(observe.InvalidReplica)
				}
				for _, r := range ch.DeletedRoles {
					fl.Cache.DeleteRole(r)
					f.meter.Invalidated(observe.InvalidReplica)
				}
				f.log.Debug("decision cache: what changed elsewhere dropped", "client", fl.Client,
					"revision", rev, "users", len(ch.Users), "roles", len(ch.Roles)+len(ch.DeletedRoles))
				return ch.Others
			}
			f.flush(fl)
			f.log.Debug("decision cache flushed: the client changed elsewhere", "client", fl.Client, "revision", rev)
			return ch.Others
		}
	}
	f.flush(fl)
	f.log.Debug("decision cache flushed: changes elsewhere not in the change log", "client", fl.Client, "revision", rev)
	return max(rev-known, 0)
}

func (f *Feed) flush(fl *Follower) {
	fl.Cache.Flush()
	f.meter.Invalidated(observe.InvalidFlush)
}

// FlushAll flushes every follower's cache, saying why in the log.
func (f *Feed) FlushAll(reason string) {
	n := 0
	for fl := range f.followers {
		fl.lapse() // what is written until the feed reads again goes unfollowed
		if fl.holds() {
			n++
			f.flush(fl)
		} else {
			fl.Cache.Flush() // nothing to count, but a build may be running
		}
	}
	if n > 0 {
		f.log.Warn("decision cache flushed", "reason", reason, "clients", n)
	}
}
