package authz

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

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
	if bound > int64(az.cfg.MaxRowsPerClient) {
		return az.checkQuotaCounted(ctx, tx, ns, rev)
	}
	return az.checkNamespaces(ctx, tx, rev)
}

// checkQuotaCounted is checkQuota on the exact count of the namespace's
// rows, which it keeps as the bound: for a write that may add many rows at
// once (a batch, a policy), which a bound kept one row per write would not
// see, and for checkQuota once the bound passes the limit.
func (az *Authz) checkQuotaCounted(ctx context.Context, tx bun.IDB, ns string, rev int64) error {
	rows, err := storage.RecountRows(ctx, tx, ns)
	if err != nil {
		return err
	}
	if limit := int64(az.cfg.MaxRowsPerClient); az.open() && rows > limit {
		return fmt.Errorf("%w: a namespace holds at most %d rows (AUTH_MAX_ROWS_PER_CLIENT); delete some first", ErrQuotaExceeded, limit)
	}
	return az.checkNamespaces(ctx, tx, rev)
}

// checkNamespaces refuses, in open mode, the first write ever (rev 1) of
// a namespace beyond AUTH_MAX_NAMESPACES.
func (az *Authz) checkNamespaces(ctx context.Context, tx bun.IDB, rev int64) error {
	if rev != 1 || !az.open() {
		return nil
	}
	n, err := storage.CountNamespaces(ctx, tx)
	if err != nil {
		return err
	}
	if n > az.cfg.MaxNamespaces {
		return fmt.Errorf("%w: the store holds at most %d client namespaces (AUTH_MAX_NAMESPACES)", ErrQuotaExceeded, az.cfg.MaxNamespaces)
	}
	return nil
}
