// Package expiry removes the memberships and grants whose time ran out:
// in the background, each with one audit record (expire_membership,
// expire_permission) and one change-log entry, as a revoke leaves, so that
// every replica's cache drops it and the change feed shows it. Checks
// never wait for it: the decision cache stops counting a row at its
// expires_at by itself (see authz/internal/cache, boundary.go); the
// removal is what makes the expiry a recorded change.
//
// Several replicas may run it at once. A lease in the store lets one of
// them sweep at a time, and the delete itself is conditional (a row
// another transaction removed first is neither removed nor recorded
// again), so each expired row is recorded exactly once.
package expiry

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/clock"
	"github.com/rolegate/rolegate/storage"
)

// DefaultEvery is how often the store is looked at for expired rows.
const DefaultEvery = 5 * time.Second

// Batch is how many rows one transaction removes at most.
const Batch = 500

// leaseKey names the lease in rolegate_settings.
const leaseKey = "expiry_lease"

// Host is what a sweep asks of the process that runs it.
type Host interface {
	// Scope is the namespace's scope (how its names are stored, the key
	// check value its writes are made under); release gives it back.
	Scope(ns string) (s storage.Scope, release func())
	// Audit is the audit record of one removal at at; false when the
	// audit log is off.
	Audit(ns string, e storage.Expired, at time.Time) (storage.AuditRecord, bool)
	// Writer is the id the change log records for this process's changes.
	Writer() string
	// Removed is told, after commit, what one transaction removed from a
	// namespace and the revisions first..last its entries took: the
	// process drops what its cache held of them.
	Removed(ctx context.Context, ns string, removed []storage.Expired, audited int, first, last int64)
}

// Sweeper removes expired rows every Every.
type Sweeper struct {
	DB    *bun.DB
	Clock clock.Clock
	Every time.Duration
	Host  Host
	Log   *slog.Logger
	// Holder names this process in the lease.
	Holder string
	// Writers, when set, queues each transaction with the process's other
	// writers (SQLite allows one writer at a time).
	Writers *sync.Mutex
}

// Run sweeps every Every until ctx ends, then gives the lease up.
func (s *Sweeper) Run(ctx context.Context) {
	t := time.NewTicker(s.Every)
	defer t.Stop()
	defer func() {
		gctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_, _ = storage.TryLease(gctx, s.DB, leaseKey, s.Holder, 0)
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.Log.Warn("expiry: expired memberships and grants not removed yet; retrying", "error", err)
		}
	}
}

// leaseTTL is how long the lease outlives its holder's last sweep: far
// above the replicas' clock skew, and several sweeps long.
func (s *Sweeper) leaseTTL() time.Duration { return max(30*time.Second, 3*s.Every) }

// Sweep removes, if this process holds the lease, every row expired by
// now, a transaction of at most Batch rows at a time, and reports how many
// it removed.
func (s *Sweeper) Sweep(ctx context.Context) (int, error) {
	held, err := storage.TryLease(ctx, s.DB, leaseKey, s.Holder, s.leaseTTL())
	if err != nil || !held {
		return 0, err
	}
	now := s.Clock.Now()
	total := 0
	for {
		spaces, err := storage.ExpiringNamespaces(ctx, s.DB, now, 100)
		if err != nil || len(spaces) == 0 {
			return total, err
		}
		for _, ns := range spaces {
			for {
				n, err := s.expire(ctx, ns, now)
				total += n
				if err != nil {
					return total, err
				}
				if n < Batch {
					break
				}
			}
		}
	}
}

// expire removes up to Batch expired rows of one namespace in one
// transaction, with their audit records and change-log entries.
func (s *Sweeper) expire(ctx context.Context, ns string, now time.Time) (int, error) {
	scope, release := s.Host.Scope(ns)
	defer release()
	if s.Writers != nil {
		s.Writers.Lock()
		defer s.Writers.Unlock()
	}
	var removed []storage.Expired
	var first, last int64
	audited := 0
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		removed, err = storage.ExpireDue(ctx, tx, scope, now, Batch)
		if err != nil || len(removed) == 0 {
			return err
		}
		var recs []storage.AuditRecord
		for _, e := range removed {
			if rec, ok := s.Host.Audit(ns, e, now); ok {
				recs = append(recs, rec)
			}
		}
		if err := storage.InsertAudit(ctx, tx, recs...); err != nil {
			return err
		}
		audited = len(recs)
		for i, e := range removed {
			ch := storage.Change{User: e.User, Writer: s.Host.Writer()}
			if e.IsGrant() {
				ch = storage.Change{Role: e.Role, Writer: s.Host.Writer()}
			}
			// The change feed names the removal by its audit action.
			fe := storage.FeedEntry{Op: "expire_membership", User: e.User, Role: e.Role, Scope: e.Scope, At: time.Now()}
			if e.IsGrant() {
				fe = storage.FeedEntry{Op: "expire_permission", Role: e.Role, Permission: e.Permission, At: time.Now()}
			}
			ch.Feed = []storage.FeedEntry{fe}
			rev, err := storage.RecordChange(ctx, tx, scope, ch)
			if err != nil {
				return err
			}
			if i == 0 {
				first = rev
			}
			last = rev
		}
		return nil
	})
	if err != nil || len(removed) == 0 {
		return 0, storage.Classify(err)
	}
	s.Host.Removed(ctx, ns, removed, audited, first, last)
	return len(removed), nil
}
