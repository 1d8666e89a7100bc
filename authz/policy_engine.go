package authz

// Role inheritance and scoped memberships in batches, policies and
// backups: the operations and whole-namespace reads they need.

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// inheritanceOp runs add_inheritance or del_inheritance (a cycle is
// ErrCycle, 409, and nothing of the batch is stored).
func (c *Client) inheritanceOp(ctx context.Context, tx bun.IDB, op Operation) (bool, error) {
	if op.Op == "add_inheritance" {
		return storage.AddInheritance(ctx, tx, c.scope, op.Role, op.Parent)
	}
	return storage.DeleteInheritance(ctx, tx, c.scope, op.Role, op.Parent)
}

// scopedMembershipOp runs add_membership or del_membership with a scope.
func (c *Client) scopedMembershipOp(ctx context.Context, tx bun.IDB, op Operation) (bool, error) {
	if op.Op == "add_membership" {
		return storage.AddMembership(ctx, tx, c.scope, op.Scope, op.User, op.Role)
	}
	return storage.DeleteMembership(ctx, tx, c.scope, op.Scope, op.User, op.Role)
}

// readParents lists every role's direct parents, for exports.
func (c *Client) readParents(ctx context.Context, db bun.IDB) (map[string][]string, error) {
	edges, err := storage.AllEdges(ctx, db, c.scope)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]string)
	for _, e := range edges {
		out[e.Role] = append(out[e.Role], e.Parent)
	}
	return out, nil
}

// readScopedMemberships lists every scoped membership, for exports.
func (c *Client) readScopedMemberships(ctx context.Context, db bun.IDB) ([]PolicyMembership, error) {
	ms, err := storage.AllScopedMemberships(ctx, db, c.scope)
	if err != nil {
		return nil, err
	}
	out := make([]PolicyMembership, len(ms))
	for i, m := range ms {
		out[i] = PolicyMembership{User: m.User, Role: m.Role, Scope: m.Scope}
	}
	return out, nil
}
