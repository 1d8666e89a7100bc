package audit

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// DefaultPruneEvery is how often the audit retention runs.
const DefaultPruneEvery = 10 * time.Minute

// Pruner keeps the audit table within its retention and its bound.
type Pruner struct {
	DB         bun.IDB
	Log        *slog.Logger
	Retention  time.Duration // records older than this go
	MaxRecords int           // beyond this the clients holding the most lose their oldest
	Every      time.Duration // how often Run prunes
	// Writers, when set, queues each delete with the process's other
	// writers (SQLite allows one writer at a time).
	Writers *sync.Mutex
}

// Run deletes audit records older than Retention and, beyond MaxRecords,
// the oldest of the clients holding the most: at once, then every Every,
// until ctx ends. Every replica does it; the deletes are idempotent, so
// they only share the work.
func (p *Pruner) Run(ctx context.Context) {
	t := time.NewTicker(p.Every)
	defer t.Stop()
	for {
		p.Prune(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Prune runs both rules, one batch per statement, so that writers
// (one at a time on SQLite) never wait long behind it.
func (p *Pruner) Prune(ctx context.Context) {
	var deleted int64
	warn := func(err error) {
		if ctx.Err() == nil {
			p.Log.Warn("audit retention: records not deleted", "error", err)
		}
	}
	batches := func(prune func(context.Context) (int64, error), more func(n int64) bool) {
		for ctx.Err() == nil {
			n, err := p.pruneBatch(ctx, prune)
			deleted += n
			if err != nil {
				warn(err)
				return
			}
			if !more(n) {
				return
			}
		}
	}
	batches(func(ctx context.Context) (int64, error) {
		return storage.PruneAuditBefore(ctx, p.DB, time.Now().Add(-p.Retention))
	}, func(n int64) bool { return n == storage.AuditPruneBatch })
	// Over the count bound, the clients holding the most records lose
	// their oldest (see storage.PlanAuditPrune), so that one stranger
	// writing add/delete pairs cannot push another client's records out.
	// The plan is read once (counts through indexes), then carried out a
	// batch per statement.
	if ctx.Err() != nil {
		return
	}
	plan, err := storage.PlanAuditPrune(ctx, p.DB, p.MaxRecords)
	if err != nil {
		warn(err)
	} else {
		batches(func(ctx context.Context) (int64, error) { return plan.Next(ctx, p.DB) },
			func(int64) bool { return !plan.Done() })
	}
	if deleted > 0 {
		p.Log.Debug("audit retention", "deleted", deleted)
	}
}

// pruneBatch runs one delete, queued with this process's other writers on
// SQLite.
func (p *Pruner) pruneBatch(ctx context.Context, prune func(context.Context) (int64, error)) (int64, error) {
	if p.Writers != nil {
		p.Writers.Lock()
		defer p.Writers.Unlock()
	}
	return prune(ctx)
}
