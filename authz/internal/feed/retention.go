package feed

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// DefaultPruneEvery is how often the change feed's retention runs.
const DefaultPruneEvery = 10 * time.Minute

// pruneBatch is how many entries one prune transaction deletes at most
// (whole revisions, so a batch's may take it past).
const pruneBatch = 5000

// MaxEntriesPerClient bounds the feed entries kept of one namespace,
// whatever the retention: past it the oldest go (a reader behind them gets
// 410). In open mode a client writes at most AUTH_OPEN_WRITES_PER_SECOND,
// and a batch may hold 50,000 operations, so without it a stranger could
// grow the table by millions of rows a minute for the whole retention.
const MaxEntriesPerClient = 1_000_000

// Retention deletes the public change feed's entries older than Keep, in
// the background, and raises each namespace's floor past them (a reader
// behind it gets 410; see storage.PruneFeed). Any replica may run it:
// each delete is its own transaction and idempotent.
type Retention struct {
	DB    bun.IDB
	Keep  time.Duration
	Every time.Duration
	// Writers, when set, queues each delete with the process's other
	// writers (SQLite allows one writer at a time).
	Writers *sync.Mutex
	Log     *slog.Logger
	// Now is the clock (nil: the system's).
	Now func() time.Time
	// Most is the most entries kept of one namespace (0:
	// MaxEntriesPerClient).
	Most int64
}

// Run prunes at once and then every Every, until ctx ends.
func (r *Retention) Run(ctx context.Context) {
	if r.Keep <= 0 || r.Every <= 0 {
		return
	}
	t := time.NewTicker(r.Every)
	defer t.Stop()
	for {
		if err := r.Prune(ctx); err != nil && ctx.Err() == nil && r.Log != nil {
			r.Log.Warn("change feed: old changes not pruned; the next run will", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Prune deletes every entry older than Keep, a transaction at a time.
func (r *Retention) Prune(ctx context.Context) error {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	cutoff := now().Add(-r.Keep)
	for ctx.Err() == nil {
		n, err := r.pruneOnce(ctx, cutoff)
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
	}
	most := r.Most
	if most <= 0 {
		most = MaxEntriesPerClient
	}
	for ctx.Err() == nil {
		n, err := r.pruneOver(ctx, most)
		if err != nil || n == 0 {
			return err
		}
	}
	return ctx.Err()
}

func (r *Retention) pruneOver(ctx context.Context, most int64) (int64, error) {
	if r.Writers != nil {
		r.Writers.Lock()
		defer r.Writers.Unlock()
	}
	return storage.PruneFeedOver(ctx, r.DB, most, pruneBatch)
}

func (r *Retention) pruneOnce(ctx context.Context, cutoff time.Time) (int64, error) {
	if r.Writers != nil {
		r.Writers.Lock()
		defer r.Writers.Unlock()
	}
	return storage.PruneFeed(ctx, r.DB, cutoff, pruneBatch)
}
