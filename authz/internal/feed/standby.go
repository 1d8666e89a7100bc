package feed

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/observe"
	"github.com/rolegate/rolegate/storage"
)

// Reader decides where reads of the clients' rows go (cache fills, list
// reads): to a hot standby when one is configured and it has replayed the
// revision the read needs (see replica), else to the primary. Writes,
// migrations, locks, revision reads and LISTEN never come here: they stay
// on the primary.
//
// A standby that is behind costs a read at most the wait, once: after it
// has been seen behind for longer, reads go to the primary at once, and
// one look every wait tells when it has caught up. A standby that does
// not answer costs a read at most the bound; it is then left alone (reads
// go to the primary) and tried again in the background every second. A
// read finding every connection to it busy goes to the primary rather
// than queue. Every read that could have gone to the standby and did not
// is counted by reason (observe.Fallback).
type Reader struct {
	primary *bun.DB
	standby *bun.DB // nil: no standby, every read on the primary
	wait    time.Duration
	bound   time.Duration
	feed    *Feed // whether the primary answered the last revision check
	log     *slog.Logger
	slots   chan struct{}

	// downUntil: the standby is left alone until then (Unix ns); 0 while
	// it answers. trying: a background look is under way.
	downUntil atomic.Int64
	trying    atomic.Bool
	closed    atomic.Bool // no background look starts after Close
	wg        sync.WaitGroup
	wgMu      sync.Mutex // orders a look's start against Close

	served    atomic.Uint64
	fellBack  [observe.Fallbacks]atomic.Uint64
	lookEvery time.Duration // how often a standby behind is looked at again (the wait)
}

// ReaderConfig is what a Reader is made of.
type ReaderConfig struct {
	Primary *bun.DB
	// Standby is the hot standby (storage.OpenReplica); nil: none.
	Standby *bun.DB
	// Wait is how long a read waits for the standby to replay what it
	// needs before it goes to the primary.
	Wait time.Duration
	// Bound is how long a look at the standby (or the primary's revision
	// before one) may take.
	Bound time.Duration
	// Feed, when set, is asked whether the primary answered its last
	// revision check: while it did not, a read on the primary is bounded
	// by Bound too, so that a stalled store fails it (503) rather than
	// hold it.
	Feed *Feed
	Log  *slog.Logger
}

// standbyRetry is how long a standby that did not answer is left alone
// before a background look tries it again.
const standbyRetry = time.Second

// NewReader returns the reader of cfg.
func NewReader(cfg ReaderConfig) *Reader {
	r := &Reader{primary: cfg.Primary, standby: cfg.Standby, wait: cfg.Wait, bound: cfg.Bound,
		feed: cfg.Feed, log: cfg.Log, lookEvery: cfg.Wait}
	if r.log == nil {
		r.log = slog.Default()
	}
	if r.bound <= 0 {
		r.bound = time.Second
	}
	if r.lookEvery <= 0 {
		r.lookEvery = 10 * time.Millisecond
	}
	// The pool's connections less one for the looks and one spare.
	r.slots = make(chan struct{}, max(storage.ReplicaConns()-2, 1))
	return r
}

// Standby reports whether a standby is configured.
func (r *Reader) Standby() bool { return r.standby != nil }

// Served counts the reads the standby answered.
func (r *Reader) Served() uint64 { return r.served.Load() }

// FellBack counts the reads that could have gone to the standby and went
// to the primary, for reason why.
func (r *Reader) FellBack(why observe.Fallback) uint64 { return r.fellBack[why].Load() }

// Close waits for a background look at the standby to end; none starts
// after it.
func (r *Reader) Close() {
	r.wgMu.Lock()
	r.closed.Store(true)
	r.wgMu.Unlock()
	r.wg.Wait()
}

// Read runs read where fl's reads go: on the standby when it has replayed
// what they need, else on the primary. strict: the revision needed is the
// primary's current one, read first (strict consistency's list reads;
// checks confirm before they miss). read must call hand before it hands
// on anything it read (a list's first page): until then a failure of the
// standby runs it again on the primary, after it the error is the
// caller's. An error reading the primary's revision is returned: a read
// that must follow the primary cannot go on without it.
func (r *Reader) Read(ctx context.Context, fl *Follower, strict bool, read func(ctx context.Context, db bun.IDB, hand func()) error) error {
	if r.standby == nil {
		return r.onPrimary(ctx, read)
	}
	use, err := r.route(ctx, fl, strict)
	if err != nil {
		return err
	}
	if !use {
		return r.onPrimary(ctx, read)
	}
	handed := false
	err = read(ctx, r.standby, func() { handed = true })
	<-r.slots
	if err == nil || handed || !storage.ReplicaFailed(err) || ctx.Err() != nil {
		r.served.Add(1)
		return err
	}
	if storage.ReplicaDown(err) {
		r.down(err)
	}
	r.fellBack[observe.FallbackFailed].Add(1)
	return r.onPrimary(ctx, read)
}

func noHand() {}

// Primary runs read on the primary, whatever the standby: for a write's
// own read just after its commit, which a standby cannot have replayed
// yet (waiting for it would hold the write up, then fall back anyway).
func (r *Reader) Primary(ctx context.Context, read func(ctx context.Context, db bun.IDB) error) error {
	return r.onPrimary(ctx, func(ctx context.Context, db bun.IDB, _ func()) error { return read(ctx, db) })
}

// onPrimary runs read on the primary; bounded by Bound while the primary
// did not answer the feed's last revision check.
func (r *Reader) onPrimary(ctx context.Context, read func(ctx context.Context, db bun.IDB, hand func()) error) error {
	if r.feed != nil && r.feed.unanswered.Load() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.bound)
		defer cancel()
	}
	return read(ctx, r.primary, noHand)
}

// route decides whether fl's read goes to the standby (taking a slot of
// it when it does), counting a fallback when it does not.
func (r *Reader) route(ctx context.Context, fl *Follower, strict bool) (bool, error) {
	if !r.up() {
		r.fellBack[observe.FallbackDown].Add(1)
		return false, nil
	}
	need := fl.needs()
	if strict || !fl.trusted() {
		qctx, cancel := context.WithTimeout(ctx, r.bound)
		rev, err := storage.Revision(qctx, r.primary, fl.Scope.NS)
		cancel()
		if err != nil {
			return false, err
		}
		need = max(need, rev)
	}
	if why, ok := r.reached(ctx, fl, need); !ok {
		r.fellBack[why].Add(1)
		return false, nil
	}
	select {
	case r.slots <- struct{}{}:
		return true, nil
	default:
		r.fellBack[observe.FallbackBusy].Add(1)
		return false, nil
	}
}

// pollEvery is how often a read waiting for the standby looks again.
const pollEvery = 2 * time.Millisecond

// reached reports whether the standby has replayed revision need of fl's
// client, waiting for it up to the wait unless it has been behind for
// longer than that already. One look at a time per client: the others
// read what it found.
func (r *Reader) reached(ctx context.Context, fl *Follower, need int64) (observe.Fallback, bool) {
	st := &fl.replica
	if st.at.Load() >= need {
		return 0, true
	}
	start := time.Now()
	for {
		now := time.Now()
		since := st.behind.Load()
		late := since != 0 && now.UnixNano()-since > int64(r.wait)
		if (!late || now.UnixNano()-st.probed.Load() >= int64(r.lookEvery)) && st.probing.CompareAndSwap(false, true) {
			err := r.look(ctx, fl)
			st.probing.Store(false)
			if err != nil {
				if ctx.Err() == nil {
					r.down(err)
				}
				return observe.FallbackDown, false
			}
		}
		if st.at.Load() >= need {
			st.behind.Store(0)
			return 0, true
		}
		st.behind.CompareAndSwap(0, now.UnixNano())
		left := r.wait - time.Since(start)
		if late || left <= 0 {
			return observe.FallbackBehind, false
		}
		select {
		case <-ctx.Done():
			return observe.FallbackBehind, false
		case <-time.After(min(pollEvery, left)):
		}
	}
}

// look reads the client's revision on the standby (one read by primary
// key), within the bound.
func (r *Reader) look(ctx context.Context, fl *Follower) error {
	qctx, cancel := context.WithTimeout(ctx, r.bound)
	defer cancel()
	rev, err := storage.Revision(qctx, r.standby, fl.Scope.NS)
	fl.replica.probed.Store(time.Now().UnixNano())
	if err != nil {
		return err
	}
	raise(&fl.replica.at, rev)
	r.answered()
	return nil
}

// up reports whether reads may try the standby. While it is left alone,
// the first read past the retry time starts a background look, and the
// rest keep to the primary until that look finds it answering.
func (r *Reader) up() bool {
	until := r.downUntil.Load()
	if until == 0 {
		return true
	}
	if time.Now().UnixNano() >= until && r.trying.CompareAndSwap(false, true) {
		r.wgMu.Lock()
		defer r.wgMu.Unlock()
		if r.closed.Load() {
			return false
		}
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			defer r.trying.Store(false)
			ctx, cancel := context.WithTimeout(context.Background(), r.bound)
			defer cancel()
			if err := r.standby.PingContext(ctx); err != nil {
				r.down(err)
				return
			}
			r.answered()
		}()
	}
	return false
}

// NotAnswering records that the standby did not answer (at startup, say):
// reads leave it alone until a background look finds it answering.
func (r *Reader) NotAnswering(err error) {
	if r.standby != nil {
		r.down(err)
	}
}

// down leaves the standby alone for standbyRetry.
func (r *Reader) down(err error) {
	if r.downUntil.Swap(time.Now().Add(standbyRetry).UnixNano()) == 0 {
		r.log.Warn("read replica not answering: reading from the primary, trying it again every second",
			"error", storage.Classify(err))
	}
}

// answered records that the standby answers.
func (r *Reader) answered() {
	if r.downUntil.Load() != 0 && r.downUntil.Swap(0) != 0 {
		r.log.Info("read replica answering again: reads go to it when it has replayed what they need")
	}
}
