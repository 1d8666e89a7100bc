package authz

import (
	"context"
	"fmt"
	"runtime"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/limits"
	"github.com/rolegate/rolegate/authz/internal/rest"
	"github.com/rolegate/rolegate/storage"
)

// checkQuota runs in an adding write's transaction, after its rows were
// written and the namespace's revision bumped: rev is the new revision
// and bounds the namespace's bounds the bump returned (-1: unknown). The
// revision row orders the namespace's writers, so concurrent writers and
// replicas cannot overshoot. The bump keeps the bounds in every mode at no
// cost, so that a later start in open mode does not trust stale ones; the
// limits are enforced in open mode only: with admin keys, every writer is
// trusted (the admin keys, or the host's own code). The exact count, a scan
// of the namespace, runs only when a bound is unknown or passes its limit.
func (az *Authz) checkQuota(ctx context.Context, tx bun.IDB, ns string, rev int64, b storage.Bounds) error {
	if !az.open() || (rev != 1 && b.Rows >= 0 && b.Rows <= int64(az.cfg.MaxRowsPerClient) &&
		b.Bytes >= 0 && b.Bytes <= int64(az.cfg.MaxBytesPerClient)) {
		return nil
	}
	return az.checkQuotaCounted(ctx, tx, ns, rev)
}

// checkQuotaCounted is checkQuota on the exact counts of the namespace's
// rows and bytes, which it keeps as the bounds: for a write that may add
// many rows at once (a batch, a policy) or lengthen many (a rename), which
// bounds kept per write would not see, and for checkQuota when a bound is
// unknown or passes its limit. In open mode, the first write ever (rev 1)
// of a namespace beyond AUTH_MAX_NAMESPACES is refused.
func (az *Authz) checkQuotaCounted(ctx context.Context, tx bun.IDB, ns string, rev int64) error {
	var b storage.Bounds
	var namespaces int
	var err error
	if rev == 1 && az.open() {
		b, namespaces, err = storage.RecountWithNamespaces(ctx, tx, ns)
	} else {
		b, err = storage.Recount(ctx, tx, ns)
	}
	if err != nil {
		return err
	}
	if !az.open() {
		return nil
	}
	if limit := int64(az.cfg.MaxRowsPerClient); b.Rows > limit {
		return fmt.Errorf("%w: a namespace holds at most %d rows (AUTH_MAX_ROWS_PER_CLIENT); delete some first", ErrQuotaExceeded, limit)
	}
	if limit := int64(az.cfg.MaxBytesPerClient); b.Bytes > limit {
		return fmt.Errorf("%w: a namespace holds at most %d bytes of names and descriptions (AUTH_MAX_BYTES_PER_CLIENT); delete some first", ErrQuotaExceeded, limit)
	}
	if namespaces > az.cfg.MaxNamespaces {
		return fmt.Errorf("%w: the store holds at most %d client namespaces (AUTH_MAX_NAMESPACES)", ErrQuotaExceeded, az.cfg.MaxNamespaces)
	}
	return nil
}

// readsRunning is MaxReadsRunning, its zero half the CPUs (at least one):
// the other half answers everything else meanwhile (the requests' own
// handling, warm checks, writes). On 2 cores, 20 clients' heavy reads 4 at
// a time each took another client's p99 to 55-76 ms with two running
// (SQLite, whose reads run in the process), 10 ms with one.
func (c Config) readsRunning() int {
	if c.MaxReadsRunning > 0 {
		return c.MaxReadsRunning
	}
	return max(1, runtime.GOMAXPROCS(0)/2)
}

// maxOpenBatches bounds the batches of all clients running in open mode.
// Decoding and running a batch of up to 8 MiB holds several times its body;
// SQLite runs one writer at a time anyway.
const maxOpenBatches = 2

// maxBatchBodyBytesHeld bounds the batch bodies all clients hold at once
// in open mode, being read or running: as many as four bodies of the
// largest size. A body takes its bytes as they arrive, so a client sending
// slowly holds what it has sent, not what it declared.
const maxBatchBodyBytesHeld = 4 * MaxBatchBodyBytes

// admitBatch lets a batch in before its body is read. In open mode the
// client must have a write left (else the body would be read only to be
// refused) and no other batch in flight; the gate it returns then bounds
// the bytes of body held by all clients' batches together and, once the
// body is read, the batches running: a stranger sending many large
// batches at once cannot make the process hold their bodies together, and
// two sending theirs a byte a second hold no slot another client's batch
// needs. Without open mode it admits everything (a nil gate).
func (az *Authz) admitBatch(c *Client) (rest.BatchGate, error) {
	if az.writeRate == nil {
		return nil, nil
	}
	if err := az.writeRate.Ready(c.scope.NS); err != nil {
		return nil, err
	}
	mine, err := az.batchGate.Acquire(c.scope.NS)
	if err != nil {
		return nil, err
	}
	return &batchGate{az: az, mine: mine}, nil
}

// batchGate is one batch's way through the open mode's limits.
type batchGate struct {
	az   *Authz
	mine func() // the client's one batch in flight
	all  func() // a slot of maxOpenBatches, once Run
	held int64  // body bytes taken
}

var _ rest.BatchGate = (*batchGate)(nil)

func (g *batchGate) Take(n int64) error {
	if err := g.az.batchBytes.Take(n); err != nil {
		return err
	}
	g.held += n
	return nil
}

func (g *batchGate) Run() error {
	all, err := g.az.batchesAll.Acquire("")
	if err != nil {
		return err
	}
	g.all = all
	return nil
}

func (g *batchGate) Release() {
	if g.all != nil {
		g.all()
	}
	g.az.batchBytes.Give(g.held)
	g.held = 0
	g.mine()
}

// maxCheckBodyBytesHeld bounds the bytes of POST /api/check bodies that all
// clients' requests hold at once in open mode.
const maxCheckBodyBytesHeld = 4 * MaxCheckBodyBytes

// checkGate is one check request's body bytes in open mode.
type checkGate struct {
	bytes *limits.Bytes
	held  int64
}

var _ rest.CheckGate = (*checkGate)(nil)

func (g *checkGate) Take(n int64) error {
	if err := g.bytes.Take(n); err != nil {
		return err
	}
	g.held += n
	return nil
}

func (g *checkGate) Release() {
	g.bytes.Give(g.held)
	g.held = 0
}
