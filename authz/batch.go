package authz

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// Operation is one write of a batch (Client.Batch, POST /api/batch) or of
// a policy plan. Op names the library operation; the other fields are its
// arguments, those it does not take left empty.
type Operation struct {
	// Op is one of add_role, set_description, del_role, add_permission,
	// del_permission, add_membership, del_membership, add_inheritance,
	// del_inheritance.
	Op          string `json:"op"`
	Role        string `json:"role,omitempty"`
	Description string `json:"description,omitempty"`
	Permission  string `json:"permission,omitempty"`
	User        string `json:"user,omitempty"`
	// Scope: a membership's scope; empty for a global membership.
	Scope string `json:"scope,omitempty"`
	// Parent: the role whose permissions Role inherits.
	Parent string `json:"parent,omitempty"`
	// StartsAt and ExpiresAt: the time bounds of add_permission and
	// add_membership (nil: none), set to exactly these as the single adds
	// do (see ExpiresAt); an existing row whose bounds change is
	// "changed". Starting at or after the expiry is a bad request, an
	// expiry already past ErrAlreadyExpired.
	StartsAt  *time.Time `json:"starts_at,omitempty"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// bounds are the operation's time bounds as stored.
func (op Operation) bounds() storage.TimeBounds {
	var b storage.TimeBounds
	if op.StartsAt != nil {
		b.Starts = *op.StartsAt
	}
	if op.ExpiresAt != nil {
		b.Expires = *op.ExpiresAt
	}
	return b.Normalized()
}

// OpResult is what one operation of a batch did: created, existed,
// deleted, absent, changed or unchanged (changed: a description, or the
// time bounds of a grant or membership that existed).
type OpResult struct {
	Op     string `json:"op"`
	Result string `json:"result"`
}

// MaxBatchOperations bounds one batch (a policy of 10,000 grants with its
// roles and memberships fits).
const MaxBatchOperations = 50000

// BatchError is the error of a batch that failed: which operation failed,
// and why (errors.Is sees the cause). Nothing of the batch was stored.
type BatchError struct {
	Index int // 0-based
	Op    string
	Err   error
}

func (e *BatchError) Error() string {
	op := e.Op
	if len(op) > maxOpEcho {
		// Not a known op (they are short): the client sent it, so it is
		// not echoed whole into errors, logs and answers.
		op = strings.ToValidUTF8(op[:maxOpEcho], "") + "…"
	}
	return fmt.Sprintf("operation %d (%s): %v", e.Index, op, e.Err)
}

// maxOpEcho is the most bytes of an operation's op that an error repeats.
const maxOpEcho = 32

func (e *BatchError) Unwrap() error { return e.Err }

// Batch runs the operations in order in one transaction, with one
// revision bump (so other replicas re-read once), one audit record per
// change and one for all the operations that changed nothing. When one fails, nothing is stored and the error is a
// *BatchError naming it.
func (c *Client) Batch(ctx context.Context, ops []Operation) ([]OpResult, error) {
	results, _, err := c.batch(ctx, ops)
	return results, err
}

func (c *Client) batch(ctx context.Context, ops []Operation) ([]OpResult, written, error) {
	ops = normalizeOperations(ops)
	if err := c.checkOperations(ops); err != nil {
		c.auditRefusal(ctx, "batch", "batch", err)
		return nil, written{}, err
	}
	var results []OpResult
	var removals map[int]removal
	ch := change{action: "batch", resource: "batch", many: true,
		entries: func() []storage.FeedEntry { return feedOps(ops, results, removals) }}
	wr, err := c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		var err error
		results, removals, err = c.runOperations(ctx, w.db, ops)
		return anyChanged(results), err
	})
	if err != nil {
		return nil, written{}, err
	}
	if !c.az.cfg.DisableAuditLogging {
		n := batchAudited(results)
		c.az.metrics.audited(n)
		if c.az.pruner.Wrote(n) {
			c.az.pruner.Settle(ctx)
		}
	}
	return results, wr, nil
}

// normalizeOperations returns ops with every name in NFC (a copy; the
// caller's slice is left alone), as every other entry point does, so that
// a decomposed "é" in a batch names the composed role.
func normalizeOperations(ops []Operation) []Operation {
	if len(ops) > MaxBatchOperations {
		return ops // refused by checkOperations; not worth copying
	}
	out := make([]Operation, len(ops))
	for i, op := range ops {
		out[i] = normalizeOperation(op)
	}
	return out
}

// normalizeOperation is op with every name in NFC.
func normalizeOperation(op Operation) Operation {
	op.Role = middleware.NormalizeName(op.Role)
	op.Permission = middleware.NormalizeName(op.Permission)
	op.User = middleware.NormalizeName(op.User)
	op.Scope = middleware.NormalizeName(op.Scope)
	op.Parent = middleware.NormalizeName(op.Parent)
	return op
}

// checkOperations validates every operation before anything runs.
func checkOperations(ops []Operation) error {
	if len(ops) > MaxBatchOperations {
		return fmt.Errorf("%w: at most %d operations in one batch", errBadRequest, MaxBatchOperations)
	}
	for i, op := range ops {
		if err := op.check(); err != nil {
			return &BatchError{Index: i, Op: op.Op, Err: err}
		}
	}
	return nil
}

// checkOperations is checkOperations with the grants of reserved names
// refused in open mode (see Client.checkGrantable).
func (c *Client) checkOperations(ops []Operation) error {
	if err := checkOperations(ops); err != nil {
		return err
	}
	now := c.az.cfg.clock.Now()
	for i, op := range ops {
		if op.Op == "add_permission" {
			if err := c.checkGrantable(op.Permission); err != nil {
				return &BatchError{Index: i, Op: op.Op, Err: err}
			}
		}
		if op.StartsAt != nil || op.ExpiresAt != nil {
			if err := checkBounds(op.bounds(), now); err != nil {
				return &BatchError{Index: i, Op: op.Op, Err: err}
			}
		}
	}
	return nil
}

// check validates one operation's arguments: the names it needs, and
// none it does not take.
func (op Operation) check() error {
	var need []string // kind, value pairs
	var extra bool
	switch op.Op {
	case "add_role", "set_description":
		need = []string{"role", op.Role}
		extra = op.Permission != "" || op.User != "" || op.Scope != "" || op.Parent != ""
		if err := checkDescription(op.Description); err != nil {
			return err
		}
	case "del_role":
		need = []string{"role", op.Role}
		extra = op.Description != "" || op.Permission != "" || op.User != "" || op.Scope != "" || op.Parent != ""
	case "add_permission", "del_permission":
		need = []string{"role", op.Role, "permission", op.Permission}
		extra = op.Description != "" || op.User != "" || op.Scope != "" || op.Parent != ""
	case "add_membership", "del_membership":
		need = []string{"user", op.User, "role", op.Role}
		if op.Scope != "" {
			need = append(need, "scope", op.Scope)
		}
		extra = op.Description != "" || op.Permission != "" || op.Parent != ""
	case "add_inheritance", "del_inheritance":
		need = []string{"role", op.Role, "parent", op.Parent}
		extra = op.Description != "" || op.Permission != "" || op.User != "" || op.Scope != ""
	default:
		return fmt.Errorf("%w: op must be one of add_role, set_description, del_role, add_permission, del_permission, add_membership, del_membership, add_inheritance, del_inheritance", errBadRequest)
	}
	if (op.StartsAt != nil || op.ExpiresAt != nil) && op.Op != "add_permission" && op.Op != "add_membership" {
		return fmt.Errorf("%w: %s takes no starts_at or expires_at (only add_permission and add_membership do)", errBadRequest, op.Op)
	}
	if extra {
		return fmt.Errorf("%w: %s takes only %s", errBadRequest, op.Op, opFields(op.Op))
	}
	return checkNames(need...)
}

func opFields(op string) string {
	switch op {
	case "add_role", "set_description":
		return "role and description"
	case "del_role":
		return "role"
	case "add_permission", "del_permission":
		return "role and permission"
	case "add_membership", "del_membership":
		return "user, role and scope"
	default:
		return "role and parent"
	}
}

// runOperations runs checked operations in tx, auditing them (batchAudit),
// and returns with their results what each del_role removed (by index),
// for the feed (feedOps).
func (c *Client) runOperations(ctx context.Context, tx bun.IDB, ops []Operation) ([]OpResult, map[int]removal, error) {
	results, removals, err := c.runOps(ctx, tx, ops)
	if err != nil {
		return nil, nil, err
	}
	// Written together at the end, in the same transaction: a few round
	// trips instead of one per operation.
	if err := storage.InsertAudit(ctx, tx, c.batchAudit(ctx, ops, results, removals)...); err != nil {
		return nil, nil, err
	}
	return results, removals, nil
}

// removal is what a del_role of a batch removed with its role: the audit
// record's detail (storage.RoleRemoved), and the feed entries of its
// memberships, recorded ahead for its del_role entry to take in.
type removal struct {
	detail  string
	members storage.RemovedMembers
}

// runOps runs checked operations in tx, returning with their results what
// each del_role removed (by index), for the audit and the feed.
func (c *Client) runOps(ctx context.Context, tx bun.IDB, ops []Operation) ([]OpResult, map[int]removal, error) {
	return c.runOpsKnown(ctx, tx, ops, map[string]bool{})
}

// runOpsKnown is runOps with the roles already seen to exist in this
// transaction (a streamed batch's earlier chunks), which it adds to.
func (c *Client) runOpsKnown(ctx context.Context, tx bun.IDB, ops []Operation, known map[string]bool) ([]OpResult, map[int]removal, error) {
	results := make([]OpResult, len(ops))
	// Roles seen to exist in this transaction (known): grants to them and
	// memberships in them are inserted many per statement (storage.Grants,
	// storage.Memberships) instead of two round trips each, which is most
	// of the time of a large policy. Revokes go many per statement too,
	// to any role (revoking from a role that does not exist changes
	// nothing, as one by one). A run of one kind is written before an
	// operation of another, so the order holds.
	bulkMembers := storage.Memberships(nil).Bulk(c.scope)
	removals := map[int]removal{} // what a del_role removed, for its record and the feed
	var pending []int             // indexes of consecutive ops of pendingOp
	pendingOp := ""
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		var changed, unbound []bool
		var grants storage.Grants
		var err error
		if pendingOp == "add_membership" {
			ms := make(storage.Memberships, len(pending))
			for j, i := range pending {
				ms[j] = storage.Membership{Scope: ops[i].Scope, User: ops[i].User, Role: ops[i].Role}
			}
			changed, unbound, err = ms.Add(ctx, tx, c.scope)
		} else {
			grants = make(storage.Grants, len(pending))
			for j, i := range pending {
				grants[j] = storage.Grant{Role: ops[i].Role, Name: ops[i].Permission}
			}
			write := grants.Add
			if pendingOp == "del_permission" {
				write = grants.Delete
			}
			changed, err = write(ctx, tx, c.scope)
		}
		if err != nil {
			return &BatchError{Index: pending[0], Op: pendingOp, Err: err}
		}
		for j, i := range pending {
			results[i] = OpResult{Op: ops[i].Op, Result: opOutcome(ops[i].Op, changed[j])}
			if unbound != nil && unbound[j] {
				// A membership that existed with bounds has them cleared,
				// as AddMembership's does: changed.
				results[i].Result = "changed"
			}
		}
		if pendingOp == "add_permission" {
			// A grant that existed takes the bounds the add names (none),
			// as AddPermission's does: those that had some are changed.
			var existed storage.Grants
			var at []int
			for j, i := range pending {
				if !changed[j] {
					existed, at = append(existed, grants[j]), append(at, i)
				}
			}
			if len(existed) > 0 {
				unbound, err := existed.Unbound(ctx, tx, c.scope)
				if err != nil {
					return &BatchError{Index: at[0], Op: pendingOp, Err: err}
				}
				for j, i := range at {
					if unbound[j] {
						results[i].Result = "changed"
					}
				}
			}
		}
		pending = pending[:0]
		return nil
	}
	for i, op := range ops {
		unbounded := op.StartsAt == nil && op.ExpiresAt == nil
		if op.Op == "add_permission" && known[op.Role] && unbounded || op.Op == "del_permission" || op.Op == "add_membership" && bulkMembers && known[op.Role] && unbounded {
			if op.Op != pendingOp {
				if err := flush(); err != nil {
					return nil, nil, err
				}
				pendingOp = op.Op
			}
			pending = append(pending, i)
			continue
		}
		if err := flush(); err != nil {
			return nil, nil, err
		}
		var changed bool
		var err error
		result := ""
		switch op.Op {
		case "del_role":
			var removed storage.RoleRemoved
			var members storage.RemovedMembers
			if changed, removed, members, err = storage.DeleteRoleFeed(ctx, tx, c.scope, op.Role); changed {
				removals[i] = removal{detail: removed.JSON(), members: members}
			}
		case "add_permission", "add_membership":
			var p storage.Put
			p, err = c.putOperation(ctx, tx, op)
			changed = p.Created
			if p.Changed && !p.Created {
				result = "changed"
			}
		default:
			changed, err = c.runOperation(ctx, tx, op)
		}
		if err != nil {
			return nil, nil, &BatchError{Index: i, Op: op.Op, Err: storage.Classify(err)}
		}
		if result == "" {
			result = opOutcome(op.Op, changed)
		}
		results[i] = OpResult{Op: op.Op, Result: result}
		switch op.Op {
		case "del_role":
			delete(known, op.Role)
		case "add_role", "set_description", "add_permission", "add_membership":
			known[op.Role] = true
		}
	}
	if err := flush(); err != nil {
		return nil, nil, err
	}
	return results, removals, nil
}

// batchAudit is the audit of a batch's operations: one record for each
// change, and one for all the operations that changed nothing, with their
// count ("unchanged: 50000 operations"). A batch of no-ops, which anyone
// in open mode may send, so adds one record, not one per operation. A
// record's detail is removals[i]'s (what a del_role removed).
func (c *Client) batchAudit(ctx context.Context, ops []Operation, results []OpResult, removals map[int]removal) []storage.AuditRecord {
	if c.az.cfg.DisableAuditLogging {
		return nil
	}
	audit, unchanged := c.auditChanges(ctx, ops, results, removals)
	if unchanged > 0 {
		audit = append(audit, c.unchangedAudit(ctx, unchanged))
	}
	return audit
}

// auditChanges is the record of each change of ops, and the count of
// those that changed nothing.
func (c *Client) auditChanges(ctx context.Context, ops []Operation, results []OpResult, removals map[int]removal) ([]storage.AuditRecord, int) {
	var audit []storage.AuditRecord
	unchanged := 0
	for i, op := range ops {
		if !isChange(results[i].Result) {
			unchanged++
			continue
		}
		rec := c.auditRecord(ctx, op.Op, c.opResource(op), results[i].Result)
		rec.Detail = removals[i].detail
		audit = append(audit, rec)
	}
	return audit, unchanged
}

// unchangedAudit is the one record of a batch's operations that changed
// nothing.
func (c *Client) unchangedAudit(ctx context.Context, unchanged int) storage.AuditRecord {
	return c.auditRecord(ctx, "batch", "batch", fmt.Sprintf("unchanged: %d operations", unchanged))
}

// batchAudited is how many audit records batchAudit writes for results.
func batchAudited(results []OpResult) int {
	n, unchanged := 0, false
	for _, r := range results {
		if isChange(r.Result) {
			n++
		} else {
			unchanged = true
		}
	}
	if unchanged {
		n++
	}
	return n
}

// runOperation runs one operation, as the library method of its name does;
// not del_role, which runOpsKnown runs itself (its members go to the feed).
func (c *Client) runOperation(ctx context.Context, tx bun.IDB, op Operation) (bool, error) {
	switch op.Op {
	case "add_role":
		return storage.AddRole(ctx, tx, c.scope, op.Role, op.Description)
	case "set_description":
		return storage.SetRoleDescription(ctx, tx, c.scope, op.Role, op.Description)
	case "add_permission":
		return storage.AddPermission(ctx, tx, c.scope, op.Role, op.Permission)
	case "del_permission":
		return storage.DeletePermission(ctx, tx, c.scope, op.Role, op.Permission)
	case "add_membership", "del_membership":
		if op.Scope != "" {
			return c.scopedMembershipOp(ctx, tx, op)
		}
		if op.Op == "add_membership" {
			return storage.AddMembership(ctx, tx, c.scope, "", op.User, op.Role)
		}
		return storage.DeleteMembership(ctx, tx, c.scope, "", op.User, op.Role)
	case "add_inheritance", "del_inheritance":
		return c.inheritanceOp(ctx, tx, op)
	}
	return false, fmt.Errorf("%w: unknown op", errBadRequest)
}

// putOperation runs add_permission or add_membership with the
// operation's bounds (none when it names none), as the single adds do.
func (c *Client) putOperation(ctx context.Context, tx bun.IDB, op Operation) (storage.Put, error) {
	if op.Op == "add_permission" {
		return storage.PutPermission(ctx, tx, c.scope, op.Role, op.Permission, op.bounds())
	}
	return storage.PutMembership(ctx, tx, c.scope, op.Scope, op.User, op.Role, op.bounds())
}

// opResource names an operation's target in the audit log, as the single
// operations do (never the plaintext of an encrypted name), with an
// add's bounds.
func (c *Client) opResource(op Operation) string {
	switch op.Op {
	case "add_permission", "del_permission":
		return c.grantResource(op.Role, op.Permission) + boundsNote(op.bounds())
	case "add_membership", "del_membership":
		r := c.memberResource(op.User, op.Role)
		if op.Scope != "" {
			r += "@" + op.Scope
		}
		return r + boundsNote(op.bounds())
	case "add_inheritance", "del_inheritance":
		return "inheritance:" + op.Role + "/" + op.Parent
	default:
		return "role:" + op.Role
	}
}

func opOutcome(op string, changed bool) string {
	if op == "set_description" {
		if changed {
			return "changed"
		}
		return "unchanged"
	}
	return outcome(op, changed)
}

// feedOps are the change feed's entries of the operations that changed
// something; a del_role's carries the memberships it removed (removals),
// which the feed names before it.
func feedOps(ops []Operation, results []OpResult, removals map[int]removal) []storage.FeedEntry {
	var out []storage.FeedEntry
	for i, op := range ops {
		if i < len(results) && isChange(results[i].Result) {
			out = append(out, storage.FeedEntry{Op: op.Op, Role: op.Role, Permission: op.Permission, User: op.User,
				Scope: op.Scope, Parent: op.Parent, Description: op.Description, Bounds: op.bounds(),
				Removed: removals[i].members})
		}
	}
	return out
}

func anyChanged(rs []OpResult) bool {
	for _, r := range rs {
		if isChange(r.Result) {
			return true
		}
	}
	return false
}

// isChange reports whether an operation's result is a change.
func isChange(result string) bool {
	return result == storage.AuditCreated || result == storage.AuditDeleted || result == "changed"
}

// errBatchNoop rolls back a transaction that turned out to change nothing
// (a policy applied by another replica meanwhile).
var errBatchNoop = errors.New("nothing to change")

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
