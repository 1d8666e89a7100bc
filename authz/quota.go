package authz

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// checkQuota runs in an adding write's transaction, after its row was
// written and the namespace's revision bumped: rev is the new revision
// and bound the namespace's row bound the bump returned (-1: unknown).
// The revision row orders the namespace's writers, so concurrent writers
// and replicas cannot overshoot. The bump keeps the bound in every mode at
// no cost, so that a later start in open mode does not trust a stale one;
// the limits are enforced in open mode only: with admin keys, every writer
// is trusted (the admin keys, or the host's own code). The exact count, a
// scan of the namespace, runs only when the bound is unknown or passes the
// limit.
func (az *Authz) checkQuota(ctx context.Context, tx bun.IDB, ns string, rev, bound int64) error {
	if !az.open() || (bound >= 0 && bound <= int64(az.cfg.MaxRowsPerClient) && rev != 1) {
		return nil
	}
	return az.checkQuotaCounted(ctx, tx, ns, rev)
}

// checkQuotaCounted is checkQuota on the exact count of the namespace's
// rows, which it keeps as the bound: for a write that may add many rows at
// once (a batch, a policy), which a bound kept one row per write would not
// see, and for checkQuota when the bound is unknown or passes the limit.
// In open mode, the first write ever (rev 1) of a namespace beyond
// AUTH_MAX_NAMESPACES is refused.
func (az *Authz) checkQuotaCounted(ctx context.Context, tx bun.IDB, ns string, rev int64) error {
	var rows int64
	var namespaces int
	var err error
	if rev == 1 && az.open() {
		rows, namespaces, err = storage.RecountRowsAndNamespaces(ctx, tx, ns)
	} else {
		rows, err = storage.RecountRows(ctx, tx, ns)
	}
	if err != nil {
		return err
	}
	if limit := int64(az.cfg.MaxRowsPerClient); az.open() && rows > limit {
		return fmt.Errorf("%w: a namespace holds at most %d rows (AUTH_MAX_ROWS_PER_CLIENT); delete some first", ErrQuotaExceeded, limit)
	}
	if az.open() && namespaces > az.cfg.MaxNamespaces {
		return fmt.Errorf("%w: the store holds at most %d client namespaces (AUTH_MAX_NAMESPACES)", ErrQuotaExceeded, az.cfg.MaxNamespaces)
	}
	return nil
}

// maxOpenBatches bounds the batches of all clients in flight in open
// mode. A batch body is up to 8 MiB and decoding and running it holds
// several times that; SQLite runs one writer at a time anyway.
const maxOpenBatches = 2

// admitBatch lets a batch in before its body is read. In open mode the
// client must have a write left (else the body would be read only to be
// refused), no other batch in flight, and fewer than maxOpenBatches
// batches of all clients may be in flight: a stranger sending many large
// batches at once cannot make the process hold their bodies together.
// Without open mode it admits everything.
func (az *Authz) admitBatch(c *Client) (release func(), err error) {
	if az.writeRate == nil {
		return func() {}, nil
	}
	if err := az.writeRate.Ready(c.scope.NS); err != nil {
		return nil, err
	}
	mine, err := az.batchGate.Acquire(c.scope.NS)
	if err != nil {
		return nil, err
	}
	all, err := az.batchesAll.Acquire("")
	if err != nil {
		mine()
		return nil, err
	}
	return func() { all(); mine() }, nil
}
