package authz

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
)

// plainNames tracks, for a client with encryption on, whether its
// namespace may hold names in plain form (written before encryption was
// on, or by a replica still running without it). While it may not,
// lookups, deletes and the duplicate check of writes look for the
// encrypted form only (storage.Scope.PlainNames).
//
// It starts as "may" and a check of the store in the background clears it
// when there are none. A change from another replica running without
// encryption (the change log says so), or one that cannot be explained,
// sets it again before anything is invalidated, so the entries rebuilt
// afterwards see the plain names. A check that started before such a mark
// does not clear it.
type plainNames struct {
	may      atomic.Bool
	checking atomic.Bool // a recheck is running: at most one at a time
	mu       sync.Mutex
	marks    uint64 // how often mark was called, so a stale check cannot clear a newer mark
	pinned   bool   // marked for good: nothing follows this client's changes any more
}

func (p *plainNames) mark() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.marks++
	p.may.Store(true)
}

// pin marks for good: used when the client leaves the client table, after
// which no revision check follows it.
func (p *plainNames) pin() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pinned = true
	p.may.Store(true)
}

// suspectPlain marks the client as maybe holding plain names and has the
// store checked again in the background (one check at a time), which
// clears the mark if there are none. Called when another replica wrote
// without encryption, and when revisions went by unexplained.
func (c *Client) suspectPlain() {
	if c.scope.Names == nil {
		return
	}
	c.plain.mark()
	if !c.plain.checking.CompareAndSwap(false, true) {
		return
	}
	c.az.goBackground(func(ctx context.Context) {
		defer c.plain.checking.Store(false)
		c.recheckPlain(ctx)
	})
}

// recheckPlain asks the store whether the client's namespace holds plain
// names, and clears the mark when it does not (and nothing marked it
// meanwhile). Errors leave the mark as it is: both forms, which is safe.
func (c *Client) recheckPlain(ctx context.Context) {
	p := &c.plain
	p.mu.Lock()
	marks := p.marks
	p.mu.Unlock()
	qctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	has, err := storage.HasPlainNames(qctx, c.az.db, c.scope.NS, cipher.Prefix)
	if err != nil || has {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.marks == marks && !p.pinned {
		p.may.Store(false)
	}
}

// reliesOnNoPlain: the client looks for encrypted names only, and must
// follow other replicas' changes to learn when that stops being right,
// even while its cache is empty.
func (c *Client) reliesOnNoPlain() bool {
	return c.scope.Names != nil && !c.plain.may.Load()
}

// goBackground runs fn in a goroutine that Close waits for, unless Authz
// is closed.
func (az *Authz) goBackground(fn func(ctx context.Context)) {
	az.bgMu.Lock()
	defer az.bgMu.Unlock()
	if az.closed.Load() {
		return
	}
	az.wg.Add(1)
	go func() {
		defer az.wg.Done()
		fn(az.bg)
	}()
}
