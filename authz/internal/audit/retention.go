package audit

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
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

	written atomic.Int64  // records written by this process since the last prune
	poke    chan struct{} // wakes Run before its tick (see Wrote)
	once    sync.Once

	mu      sync.Mutex
	next    chan struct{} // closed when the next run (not one in progress) ends
	stopped bool          // Run has returned: Settle waits for nothing
}

// pokeShare is the share of MaxRecords that this process may write before
// the bound is enforced again, rather than waiting for the next tick: a
// stranger writing as fast as the store takes it then keeps the table
// within MaxRecords plus about that share (1%), not millions over it.
const pokeShare = 100

// Wrote tells the pruner that n audit records were written. Once a
// process has written a share of MaxRecords since the last prune, Run
// prunes again at once (amortised: one prune per share written, never in
// the writer's own path). It reports whether this write took the process
// past its share: the writer should then Settle once it holds no lock.
func (p *Pruner) Wrote(n int) (settle bool) {
	if p == nil || n <= 0 {
		return false
	}
	p.init()
	if p.written.Add(int64(n)) < p.share() {
		return false
	}
	select {
	case p.poke <- struct{}{}:
	default: // a prune is already due
	}
	return true
}

func (p *Pruner) init() {
	p.once.Do(func() {
		p.poke = make(chan struct{}, 1)
		p.next = make(chan struct{})
	})
}

// settleWait bounds how long Settle waits for a prune.
const settleWait = 10 * time.Second

// Settle makes a writer whose Wrote reported its share passed wait until
// a prune that starts from now on has ended, so that its records are in
// that prune's plan. A writer calls it after its commit, holding no lock
// the pruner needs. Only writers past the share wait (amortised: the
// others return from Wrote with false and never call it). So a client
// writing as fast as the store takes it keeps the table within MaxRecords
// plus the share plus what writers have in flight, at every moment, not
// only once the pruner catches up.
func (p *Pruner) Settle(ctx context.Context) {
	if p == nil {
		return
	}
	p.init()
	p.mu.Lock()
	next, stopped := p.next, p.stopped
	p.mu.Unlock()
	if stopped {
		return
	}
	select {
	case p.poke <- struct{}{}: // that next run is due now
	default:
	}
	t := time.NewTimer(settleWait)
	defer t.Stop()
	select {
	case <-next:
	case <-ctx.Done():
	case <-t.C:
	}
}

func (p *Pruner) share() int64 { return max(int64(p.MaxRecords/pokeShare), 1) }

// Run deletes audit records older than Retention and, beyond MaxRecords,
// the oldest of the clients holding the most: at once, then every Every,
// until ctx ends. Every replica does it; the deletes are idempotent, so
// they only share the work.
// Wrote also wakes it early, when the bound may have been passed.
func (p *Pruner) Run(ctx context.Context) {
	p.init()
	t := time.NewTicker(p.Every)
	defer t.Stop()
	defer func() {
		p.mu.Lock()
		p.stopped = true
		close(p.next)
		p.mu.Unlock()
	}()
	for {
		// Writers that Settle from now on wait for the run after this
		// one: this one may have read its plan before their records.
		p.mu.Lock()
		this := p.next
		p.next = make(chan struct{})
		p.mu.Unlock()
		p.written.Store(0)
		p.Prune(ctx)
		close(this)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-p.poke:
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
