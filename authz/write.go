package authz

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// change describes a write for the audit log and the cache.
type change struct {
	action   string
	resource string
	// user: only this user's permissions may change (a membership).
	user string
	// renamed: the new name of user (a rename), whose permissions change
	// too; the change log names each in an entry of its own.
	renamed string
	// role: the role whose grants changed (a grant, a revoke), or that was
	// deleted (roleDeleted), which changes its members too.
	role        string
	roleDeleted bool
	// created, when set, tells a change to an existing row (its bounds)
	// from a new one: the audit outcome of the first is "changed".
	created *bool
	// many: the write makes many changes (a batch, a policy) and audits
	// each itself. It is logged as a change that may concern anyone, so
	// the cache (here and on other replicas) re-reads once for the lot,
	// and the open mode's quotas are checked on the exact count.
	many bool
	// bytes: the bytes of text (as stored) the write may add, by which
	// the namespace's byte bound rises; a write that adds some has the
	// open mode's quotas checked.
	bytes int64
	// recount: the open mode's quotas are checked on the exact count (a
	// rename, which lengthens rows the bounds do not see).
	recount bool
	// detail, when set, is filled by the write's own work with the audit
	// record's detail (what a role's deletion removed).
	detail *string
	// entries, called once the write changed something, are its
	// operations for the change feed (GET /api/changes); the write stamps
	// them with its actor, reason and time.
	entries func() []storage.FeedEntry
	// pending, when not 0, is the placeholder revision under which the
	// write's own work recorded its feed entries (a streamed batch, see
	// storage.RecordFeedPending): they move to the revision it makes.
	pending int64
}

// entry is a change's entries when it is one operation.
func entry(e storage.FeedEntry) func() []storage.FeedEntry {
	return func() []storage.FeedEntry { return []storage.FeedEntry{e} }
}

// writer is what a write runs against: the transaction.
type writer struct{ db bun.IDB }

// written is what a write did: whether it changed anything, and the
// revisions it made (first..rev; none when it changed nothing).
type written struct {
	changed    bool
	first, rev int64
	// existed: an add changed the bounds of a row that was there (a
	// change, yet its answer is that the row existed).
	existed bool
}

// answered is a write's answer to the library's bool methods (created,
// deleted, changed).
func answered(w written, err error) (bool, error) { return w.changed && !w.existed, err }

// write is the one write path, in three steps: admit (before any work),
// the transaction, and what follows its commit. It runs fn in a
// transaction together with the revision bump and change log entry (which
// also queue the NOTIFY for other replicas) and the audit record, so that
// a change never lands without either. The change log entry carries this
// process's writer id, by which the change feed knows the change for its
// own. After commit it invalidates the local cache, so the very next
// check sees the change. It returns the revisions it made: the caller
// that wants a token of them has it without asking the store again.
func (c *Client) write(ctx context.Context, ch change, fn func(context.Context, writer) (bool, error)) (w written, err error) {
	ctx, end := c.startWrite(ctx, ch.action, ch.user)
	defer func() { end(w.changed, err) }()
	if err = c.admit(ctx, ch); err != nil {
		return written{}, err
	}
	// After the commit and the unlock below: once this process has written
	// its share of the audit bound, wait for the retention to catch up.
	settle := false
	defer func() {
		if settle {
			c.az.pruner.Settle(ctx)
		}
	}()
	if c.az.sqliteWriters != nil {
		// SQLite has one writer at a time, and a writer that finds the
		// lock taken polls for it with sleeps of up to 100 ms (its busy
		// timeout). Writers of this process queue here instead and start
		// the moment the previous one commits; other processes sharing the
		// file still meet the busy timeout.
		c.az.sqliteWriters.Lock()
		defer c.az.sqliteWriters.Unlock()
	}
	if w, err = c.transact(ctx, ch, fn); err != nil {
		if errors.Is(err, errBatchNoop) {
			return written{}, nil // rolled back: there was nothing to do
		}
		return written{}, c.refused(ctx, ch, err)
	}
	settle = c.committed(ctx, ch, w)
	return w, nil
}

// admit is a write's first step, before any work: a closed Authz refuses,
// and in open mode a client over its write rate costs the store nothing
// but (within the refusal budget) its refusal.
func (c *Client) admit(ctx context.Context, ch change) error {
	if c.az.closed.Load() {
		return ErrClosed
	}
	if err := checkActor(ctx); err != nil {
		return err
	}
	if c.az.writeRate != nil {
		if err := c.az.writeRate.Allow(c.scope.NS); err != nil {
			c.auditRefusal(ctx, ch.action, ch.resource, err)
			return err
		}
	}
	return nil
}

// transact is a write's transaction: fn, the encryption check of a write
// that changed nothing, the audit record, then the change log entry and
// revision bump and the quotas. Nothing of it is stored unless all of it
// is.
//
// PostgreSQL may roll a write back as a deadlock with another (concurrent
// batches and renames lock rows in different orders): nothing of it was
// stored, so it runs again, up to maxWriteAttempts times, after a short
// random pause, rather than answering an error for a write that would
// succeed.
func (c *Client) transact(ctx context.Context, ch change, fn func(context.Context, writer) (bool, error)) (w written, err error) {
	for attempt := 1; ; attempt++ {
		w, err = c.transactOnce(ctx, ch, fn)
		if err == nil || !storage.IsRetryable(err) {
			return w, err
		}
		if attempt == maxWriteAttempts {
			// Still meeting other writes: the store is busy (503), not
			// broken (500), and a retry later may succeed.
			return w, fmt.Errorf("%w: the write met concurrent writes %d times; try again: %v", ErrUnavailable, attempt, err)
		}
		select {
		case <-ctx.Done():
			return w, err
		case <-time.After(time.Duration(1+rand.IntN(10*attempt)) * time.Millisecond):
		}
	}
}

// maxWriteAttempts is how many times a write PostgreSQL rolled back as a
// deadlock or serialization failure is tried in all.
const maxWriteAttempts = 4

func (c *Client) transactOnce(ctx context.Context, ch change, fn func(context.Context, writer) (bool, error)) (w written, err error) {
	var bounds storage.Bounds
	err = c.az.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if w.changed, err = fn(ctx, writer{db: tx}); err != nil {
			return err
		}
		if !w.changed {
			// RecordChange checks the store's encryption state of a change;
			// a write that found nothing to do is checked here, before its
			// audit records.
			if err := storage.CheckWriter(ctx, tx, c.scope); err != nil {
				return err
			}
		}
		if !ch.many && !c.az.cfg.DisableAuditLogging {
			result := outcome(ch.action, w.changed)
			if w.changed && ch.created != nil && !*ch.created {
				result = "changed"
			}
			rec := c.auditRecord(ctx, ch.action, ch.resource, result)
			if ch.detail != nil {
				rec.Detail = *ch.detail
			}
			if err := storage.InsertAudit(ctx, tx, rec); err != nil {
				return err
			}
		}
		if !w.changed {
			return nil
		}
		// Last before commit: the revision row is the one lock all of a
		// client's writers share, so it is held as briefly as possible.
		logged := c.logged(ch)
		if ch.entries != nil {
			logged.Feed = c.stamped(ctx, ch.entries())
		}
		if w.rev, bounds, err = storage.RecordChangeBound(ctx, tx, c.scope, logged); err != nil {
			return err
		}
		w.first = w.rev
		if ch.pending != 0 {
			if err := storage.SettleFeed(ctx, tx, c.scope, ch.pending, w.rev); err != nil {
				return err
			}
		}
		if ch.renamed != "" {
			// A second revision, so that other replicas drop both names.
			renamed := storage.Change{User: ch.renamed, Writer: c.az.feed.Writer()}
			if w.rev, err = storage.RecordChange(ctx, tx, c.scope, renamed); err != nil {
				return err
			}
		}
		switch {
		case ch.many || ch.recount:
			// Many changes may add thousands of rows: the quotas are
			// checked on the exact count, in the same transaction.
			return c.az.checkQuotaCounted(ctx, tx, c.scope.NS, w.rev)
		case ch.action[:3] == "add" || ch.bytes > 0:
			return c.az.checkQuota(ctx, tx, c.scope.NS, w.rev, bounds)
		}
		return nil
	})
	return w, err
}

// stamped is entries with the write's actor and reason, as its audit
// records name them, and its time.
func (c *Client) stamped(ctx context.Context, entries []storage.FeedEntry) []storage.FeedEntry {
	actor, reason, at := actorOf(ctx, c.scope), requestInfoOf(ctx).reason, time.Now().UTC()
	for i := range entries {
		entries[i].Actor, entries[i].Reason, entries[i].At = actor, reason, at
	}
	return entries
}

// refused is what follows a write that failed: its error classified,
// counted when the store is down, and audited as a refusal.
func (c *Client) refused(ctx context.Context, ch change, err error) error {
	var be *BatchError
	if !errors.As(err, &be) {
		err = storage.Classify(err)
	}
	if errors.Is(err, ErrUnavailable) {
		c.az.metrics.storeError(storeOpWrite)
	}
	c.auditRefusal(ctx, ch.action, ch.resource, err)
	return err
}

// committed is a write's step after its commit: the audit count, the
// local cache's drop of what changed, and the change feed told of the
// revisions it made. It reports whether the write should wait for the
// audit retention (see audit.Pruner.Wrote).
func (c *Client) committed(ctx context.Context, ch change, w written) (settle bool) {
	if !ch.many && !c.az.cfg.DisableAuditLogging {
		c.az.metrics.audited(1)
		settle = c.az.pruner.Wrote(1)
	}
	if !w.changed {
		return settle
	}
	// Before anything is dropped: a cache fill that starts after the drop
	// reads at least this revision, from a read replica too.
	c.follow.Require(w.rev)
	if ch.many || ch.action[:3] == "add" {
		c.held.Store(true) // see holdsNothing
	}
	switch {
	case ch.many:
		c.flushCache()
	case ch.roleDeleted:
		c.dropDeletedRole(invalidLocalWrite, ch.role)
	case ch.role != "":
		c.dropRoleRead(ctx, ch.role)
	case ch.user != "":
		c.dropUser(invalidLocalWrite, ch.user)
		if ch.renamed != "" {
			c.dropUser(invalidLocalWrite, ch.renamed)
		}
	}
	// The cache now reflects first..rev too, when it reflected everything
	// before them.
	c.az.feed.Committed(ctx, c.follow, w.first, w.rev)
	return settle
}

// logged is the change as the change log records it, with this process's
// writer id and the rows and bytes it added (one row for a single add; a
// write of many recounts them).
func (c *Client) logged(ch change) storage.Change {
	var rows int64
	if !ch.many && ch.action[:3] == "add" {
		rows = 1
	}
	return storage.Change{All: ch.many, User: ch.user, Role: ch.role, RoleDeleted: ch.roleDeleted, Writer: c.az.feed.Writer(), Rows: rows, Bytes: ch.bytes}
}

// outcome words the result of a write for the audit log. Only a change
// is storage.AuditCreated or AuditDeleted: the audit retention tells
// changes from other records by these.
func outcome(action string, changed bool) string {
	adding := action[:3] == "add"
	switch {
	case action == "rename_user" && changed:
		// The memberships now held under the new name; a change, which
		// the audit retention keeps as it keeps other changes.
		return storage.AuditCreated
	case adding && changed:
		return storage.AuditCreated
	case adding:
		return "existed"
	case changed:
		return storage.AuditDeleted
	default:
		return "absent"
	}
}

// requestInfo is what the REST layer knows of a request, for the audit
// log: our request id, the id the client sent (kept apart, never as ours),
// the remote address, who asks and why (X-Change-Reason; see
// Authz.requestContext).
type requestInfo struct {
	id, clientID, remote, reason string
	actor                        actor
}

type requestInfoKey struct{}

func (c *Client) auditRecord(ctx context.Context, action, resource, result string) storage.AuditRecord {
	info := requestInfoOf(ctx)
	return storage.AuditRecord{
		At: time.Now().UTC(), Client: c.fingerprint, Action: action, Resource: resource,
		Outcome: result, RequestID: info.id, ClientRequestID: info.clientID, RemoteAddr: info.remote,
		Actor: actorOf(ctx, c.scope), Reason: info.reason,
	}
}

// auditRefusal is Authz.auditRefusal for a refusal of c's, whose actor's
// name is stored as c's names are.
func (c *Client) auditRefusal(ctx context.Context, action, resource string, cause error) {
	if c.holdsNothing(ctx) {
		return
	}
	c.az.auditRefusalBy(ctx, c.fingerprint, actorOf(ctx, c.scope), action, resource, cause)
}

// holdsNothing reports, in open mode, whether c's namespace holds no row:
// its refusals are not audited. Any UUID v4 is a key there, and a fresh
// key per request (680 a second) made an audit record each, for a
// namespace nobody reads the audit of; a key with something stored has
// its refusals recorded as before. Once found holding a row, the client
// is not asked again (a namespace emptied later is still recorded); a
// probe that fails counts as holding (the refusal is recorded, as
// before).
func (c *Client) holdsNothing(ctx context.Context) bool {
	if !c.az.open() || c.held.Load() {
		return false
	}
	held, err := storage.HoldsAnything(context.WithoutCancel(ctx), c.az.db, c.scope.NS)
	if err != nil || held {
		c.held.Store(true)
		return false
	}
	return true
}

// auditRefusal records a refused or failed request, within the refusal
// budget (see audit.RefusalBudget). It has no change to share a transaction
// with; when the store is down it cannot be written, which is logged
// instead (without names or keys).
func (az *Authz) auditRefusal(ctx context.Context, fingerprint, action, resource string, cause error) {
	az.auditRefusalBy(ctx, fingerprint, az.refusalActor(ctx), action, resource, cause)
}

func (az *Authz) auditRefusalBy(ctx context.Context, fingerprint, actor, action, resource string, cause error) {
	if errors.Is(cause, storage.ErrKeyMismatch) {
		az.keyBehind.Store(true)
	}
	az.auditRefusedBy(ctx, fingerprint, actor, action, resource, refusalReason(cause))
}

// refusalActor is the actor of a refusal recorded without its client at
// hand: a person acts in the host's namespace only.
func (az *Authz) refusalActor(ctx context.Context) string {
	var s storage.Scope
	if az.host != nil {
		s = az.host.scope
	}
	return actorOf(ctx, s)
}

// withheldResource stands for the names of a refusal recorded by a process
// whose key is not the store's (see Authz.keyBehind).
const withheldResource = "[names withheld: the store is encrypted under a key this process has not]"

// auditRefused is auditRefusal with the reason in words.
func (az *Authz) auditRefused(ctx context.Context, fingerprint, action, resource, reason string) {
	az.auditRefusedBy(ctx, fingerprint, az.refusalActor(ctx), action, resource, reason)
}

func (az *Authz) auditRefusedBy(ctx context.Context, fingerprint, actor, action, resource, reason string) {
	if az.cfg.DisableAuditLogging || az.closed.Load() {
		return
	}
	ok, note, warn := az.refusals.Take(fingerprint)
	if !ok {
		az.metrics.auditSkipped()
		if warn {
			az.log.Warn("audit: refused requests arrive faster than AUTH_AUDIT_REFUSALS_PER_SECOND; the excess is counted, not recorded",
				"limit_per_second", az.cfg.AuditRefusalsPerSecond)
		}
		return
	}
	if az.keyBehind.Load() {
		resource = withheldResource
	}
	info := requestInfoOf(ctx)
	rec := storage.AuditRecord{
		At: time.Now().UTC(), Client: fingerprint, Action: action, Resource: resource,
		Outcome: "refused: " + reason + note, RequestID: info.id, ClientRequestID: info.clientID,
		RemoteAddr: info.remote, Actor: actor, Reason: info.reason,
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := storage.InsertAudit(wctx, az.db, rec); err != nil {
		az.metrics.storeError(storeOpAudit)
		az.log.Warn("audit record not written", "action", action, "outcome", rec.Outcome, "error", err)
		return
	}
	az.metrics.audited(1)
	az.pruner.Wrote(1)
}
