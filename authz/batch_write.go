package authz

import (
	"context"
	"errors"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// writeMany is write for many changes: fn runs in one transaction and
// audits each of its changes itself; the revision is bumped once, as a
// change that may concern anyone, so the cache (here and on other
// replicas) re-reads once for the lot. It follows write step for step;
// keep the two alike.
func (c *Client) writeMany(ctx context.Context, action string, fn func(context.Context, bun.IDB) (bool, error)) (err error) {
	var changed bool
	ctx, end := c.startWrite(ctx, action, "")
	defer func() { end(changed, err) }()
	if c.az.closed.Load() {
		return ErrClosed
	}
	if c.az.sqliteWriters != nil {
		c.az.sqliteWriters.Lock()
		defer c.az.sqliteWriters.Unlock()
	}
	var rev int64
	err = c.az.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if changed, err = fn(ctx, tx); err != nil {
			return err
		}
		if !changed {
			// As in write: the encryption state of a batch that changed
			// nothing, before its audit records commit.
			if err := storage.CheckWriter(ctx, tx, c.scope); err != nil {
				return err
			}
		}
		if changed {
			if rev, err = storage.RecordChange(ctx, tx, c.scope, storage.Change{All: true}); err != nil {
				return err
			}
			if c.revs.ours(rev) {
				c.flushCache()
			}
			// A batch may add thousands of rows: the open mode's quotas
			// are checked on the exact count, in the same transaction.
			if err := c.az.checkQuotaCounted(ctx, tx, c.scope.NS, rev); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		if rev != 0 {
			c.revs.withdraw(rev)
			c.flushCache()
		}
		if errors.Is(err, errBatchNoop) {
			return nil
		}
		var be *BatchError
		if !errors.As(err, &be) {
			err = storage.Classify(err)
		}
		c.az.auditRefusal(ctx, c.fingerprint, action, action, err)
		return err
	}
	if changed {
		c.flushCache()
		if rev%storage.ChangesPruneEvery == 0 {
			if err := storage.PruneChanges(ctx, c.az.db, c.scope.NS, rev); err != nil {
				c.az.log.Debug("change log not pruned", "error", err)
			}
		}
	}
	return nil
}

// lockNamespaceWrites makes concurrent policy applications of one client
// (several replicas starting at once) run one after the other, so the
// second reads what the first stored and finds nothing left to do. On
// PostgreSQL it takes a transaction-scoped advisory lock on the
// namespace; on SQLite any write statement takes the database's write
// lock for the rest of the transaction.
func (c *Client) lockNamespaceWrites(ctx context.Context, tx bun.IDB) error {
	if storage.IsPostgres(tx) {
		_, err := tx.NewRaw("SELECT pg_advisory_xact_lock(hashtext(?))", "rolegate_policy:"+c.scope.NS).Exec(ctx)
		return err
	}
	_, err := tx.NewRaw("UPDATE rolegate_revisions SET revision = revision WHERE ns = ?", c.scope.NS).Exec(ctx)
	return err
}
