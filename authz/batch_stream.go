package authz

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"

	"github.com/rolegate/rolegate/storage"
)

// MaxStreamOperations bounds one streamed batch (POST /api/batch/stream):
// twenty times what one POST /api/batch holds, applied in one transaction
// with the memory of one chunk.
const MaxStreamOperations = 1_000_000

// streamChunk is how many operations of a streamed batch run (and are
// audited) together.
const streamChunk = 5000

// operationStream yields a streamed batch's operations in order, each
// already checked, as often as it is called: once to check them, once to
// run them.
type operationStream func(yield func(Operation) error) error

// batchStream runs a batch too large for one request's memory: every
// operation is checked first (check, which nothing has run yet), then all
// run in order in one transaction, streamChunk operations at a time, with one
// revision bump, one audit record per change and one for all that changed
// nothing, and the open mode's quotas checked on the exact count. When one
// fails, nothing is stored and the error is a *BatchError naming it (by
// its index in the whole stream). It answers how many operations had each
// result (created, existed, deleted, absent, changed, unchanged).
func (c *Client) batchStream(ctx context.Context, ops operationStream) (map[string]int, written, error) {
	n := 0
	now := c.az.cfg.clock.Now()
	err := ops(func(op Operation) error {
		if n == MaxStreamOperations {
			return fmt.Errorf("%w: at most %d operations in one streamed batch", errBadRequest, MaxStreamOperations)
		}
		if err := op.check(); err != nil {
			return &BatchError{Index: n, Op: op.Op, Err: err}
		}
		if op.Op == "add_permission" {
			if err := c.checkGrantable(op.Permission); err != nil {
				return &BatchError{Index: n, Op: op.Op, Err: err}
			}
		}
		if op.StartsAt != nil || op.ExpiresAt != nil {
			if err := checkBounds(op.bounds(), now); err != nil {
				return &BatchError{Index: n, Op: op.Op, Err: err}
			}
		}
		n++
		return nil
	})
	if err != nil {
		var be *BatchError
		if errors.As(err, &be) || errors.Is(err, errBadRequest) {
			c.auditRefusal(ctx, "batch", "batch", err)
		}
		return nil, written{}, err
	}
	counts := map[string]int{}
	audited := 0
	// The feed's entries are recorded chunk by chunk, before the revision
	// they belong to is made (last, see Client.write), under a placeholder
	// of this transaction's own.
	pending := -1 - rand.Int64N(math.MaxInt64-1)
	ch := change{action: "batch", resource: "batch", many: true, pending: pending}
	wr, err := c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		clear(counts)
		audited = 0
		recorded := 0
		chunk := make([]Operation, 0, streamChunk)
		known := map[string]bool{} // roles seen to exist, across chunks
		base, unchanged, changed := 0, 0, false
		run := func() error {
			results, removals, err := c.runOpsKnown(ctx, w.db, chunk, known)
			if err != nil {
				var be *BatchError
				if errors.As(err, &be) {
					be.Index += base
				}
				return err
			}
			for _, r := range results {
				counts[r.Result]++
				changed = changed || isChange(r.Result)
			}
			entries := c.stamped(ctx, feedOps(chunk, results, removals))
			if recorded, err = storage.RecordFeedPending(ctx, w.db, c.scope, pending, recorded, entries); err != nil {
				return err
			}
			if !c.az.cfg.DisableAuditLogging {
				recs, u := c.auditChanges(ctx, chunk, results, removals)
				unchanged += u
				if err := storage.InsertAudit(ctx, w.db, recs...); err != nil {
					return err
				}
				audited += len(recs)
			}
			base += len(chunk)
			chunk = chunk[:0]
			return nil
		}
		err := ops(func(op Operation) error {
			chunk = append(chunk, op)
			if len(chunk) == streamChunk {
				return run()
			}
			return nil
		})
		if err == nil && len(chunk) > 0 {
			err = run()
		}
		if err != nil {
			return false, err
		}
		if unchanged > 0 {
			if err := storage.InsertAudit(ctx, w.db, c.unchangedAudit(ctx, unchanged)); err != nil {
				return false, err
			}
			audited++
		}
		return changed, nil
	})
	if err != nil {
		return nil, written{}, err
	}
	if !c.az.cfg.DisableAuditLogging {
		c.az.metrics.audited(audited)
		if c.az.pruner.Wrote(audited) {
			c.az.pruner.Settle(ctx)
		}
	}
	return maps.Clone(counts), wr, nil
}
