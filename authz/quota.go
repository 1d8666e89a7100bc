package authz

import (
	"context"
	"errors"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// ErrQuotaExceeded: in open mode (no admin keys configured), a write would
// take a namespace past AUTH_MAX_ROWS_PER_CLIENT rows, or the store past
// AUTH_MAX_NAMESPACES namespaces. Nothing was stored. HTTP 507
// Insufficient Storage: the request is fine but the server will not store
// more for it, and waiting does not change that (429 would tell a client
// to retry later, which never helps here); deleting rows, or an operator
// raising the limit, does.
var ErrQuotaExceeded = errors.New("storage quota exceeded")

// applyBoundDefaults puts the defaults in place of zero values.
func (c *Config) applyBoundDefaults() {
	d := DefaultConfig()
	if c.MaxRowsPerClient == 0 {
		c.MaxRowsPerClient = d.MaxRowsPerClient
	}
	if c.MaxNamespaces == 0 {
		c.MaxNamespaces = d.MaxNamespaces
	}
	if c.AuditRetention == 0 {
		c.AuditRetention = d.AuditRetention
	}
	if c.AuditMaxRecords == 0 {
		c.AuditMaxRecords = d.AuditMaxRecords
	}
	if c.auditPruneEvery == 0 {
		c.auditPruneEvery = defaultAuditPruneEvery
	}
}

// checkQuota runs in an adding write's transaction, after its row was
// written and the namespace's revision bumped (rev is the new revision):
// the revision row orders the namespace's writers, so concurrent writers
// and replicas cannot overshoot. It keeps the namespace's row bound in
// every mode (cheap: one statement), so that a later start in open mode
// does not trust a stale bound, but enforces the limits in open mode only:
// with admin keys, every writer is trusted (the admin keys, or the host's
// own code). The exact count, a scan of the namespace, runs only when the
// bound passes the limit.
func (az *Authz) checkQuota(ctx context.Context, tx bun.IDB, ns string, rev int64) error {
	bound, err := storage.AddRowBound(ctx, tx, ns)
	if err != nil || !az.open() {
		return err
	}
	limit := int64(az.cfg.MaxRowsPerClient)
	if bound > limit {
		rows, err := storage.CountNamespaceRows(ctx, tx, ns)
		if err != nil {
			return err
		}
		if rows > limit {
			return fmt.Errorf("%w: a namespace holds at most %d rows (AUTH_MAX_ROWS_PER_CLIENT); delete some first", ErrQuotaExceeded, limit)
		}
		if err := storage.SetRowBound(ctx, tx, ns, rows); err != nil {
			return err
		}
	}
	if rev == 1 { // the namespace's first write ever
		n, err := storage.CountNamespaces(ctx, tx)
		if err != nil {
			return err
		}
		if n > az.cfg.MaxNamespaces {
			return fmt.Errorf("%w: the store holds at most %d client namespaces (AUTH_MAX_NAMESPACES)", ErrQuotaExceeded, az.cfg.MaxNamespaces)
		}
	}
	return nil
}

// checkQuotaCounted is checkQuota for a write that may add many rows at
// once (a batch, a policy): it counts the namespace exactly, since a
// bound kept one row per write would not see them, and keeps the bound.
func (az *Authz) checkQuotaCounted(ctx context.Context, tx bun.IDB, ns string, rev int64) error {
	rows, err := storage.CountNamespaceRows(ctx, tx, ns)
	if err != nil {
		return err
	}
	if err := storage.SetRowBound(ctx, tx, ns, rows); err != nil {
		return err
	}
	if !az.open() {
		return nil
	}
	if limit := int64(az.cfg.MaxRowsPerClient); rows > limit {
		return fmt.Errorf("%w: a namespace holds at most %d rows (AUTH_MAX_ROWS_PER_CLIENT); delete some first", ErrQuotaExceeded, limit)
	}
	if rev == 1 {
		n, err := storage.CountNamespaces(ctx, tx)
		if err != nil {
			return err
		}
		if n > az.cfg.MaxNamespaces {
			return fmt.Errorf("%w: the store holds at most %d client namespaces (AUTH_MAX_NAMESPACES)", ErrQuotaExceeded, az.cfg.MaxNamespaces)
		}
	}
	return nil
}
