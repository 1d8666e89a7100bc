package authz

import (
	"context"

	"github.com/rolegate/rolegate/authz/internal/feed"
	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// Written is what one write did, with the revision token of its effect:
// Changed is the write's answer (created, deleted or changed); Revision a
// token (see AtLeast) of a state in which what it asked for holds: the
// revision it made, or, for a write that changed nothing, the client's
// revision read after it ("" when that read failed; the write itself
// succeeded).
type Written = rbac.Written

// Writes is the client's write API for a caller that will read what it
// wrote elsewhere: on another replica (Client.AtLeast), or over REST
// (?at_least=, as the Rolegate-Revision header of a REST write gives it).
// Each method is the Client method of the same name, returning the
// revision token beside its answer; the REST API's writes run through it.
//
// Why a handle of its own: the token is a value the write returns, not
// something written back through the context, and most callers never
// want it, so the Client's methods keep their shape (created, err :=
// c.AddRole(...)) and do not pay for it: a write that changed nothing
// reads the client's revision only here.
type Writes struct{ c *Client }

// Writes returns the client's write API with revision tokens.
func (c *Client) Writes() Writes { return Writes{c} }

// token is w as a Written: the token of the revision it made, or for a
// write that changed nothing, of the client's revision read now.
func (c *Client) token(ctx context.Context, w written, err error) (Written, error) {
	if err != nil {
		return Written{}, err
	}
	if w.changed {
		return Written{Changed: !w.existed, Revision: feed.Format(w.rev)}, nil
	}
	rev, err := c.az.feed.Revision(ctx, c.follow)
	if err != nil {
		return Written{}, nil // the write succeeded; only its token is unknown
	}
	return Written{Revision: feed.Format(rev)}, nil
}

// AddRole is Client.AddRole with its revision token.
func (w Writes) AddRole(ctx context.Context, role, description string) (Written, error) {
	wr, err := w.c.addRole(ctx, role, description)
	return w.c.token(ctx, wr, err)
}

// SetRoleDescription is Client.SetRoleDescription with its revision token.
func (w Writes) SetRoleDescription(ctx context.Context, role, description string) (Written, error) {
	wr, err := w.c.setRoleDescription(ctx, role, description)
	return w.c.token(ctx, wr, err)
}

// DelRole is Client.DelRole with its revision token.
func (w Writes) DelRole(ctx context.Context, role string) (Written, error) {
	wr, err := w.c.delRole(ctx, role)
	return w.c.token(ctx, wr, err)
}

// AddPermission is Client.AddPermission with its revision token.
func (w Writes) AddPermission(ctx context.Context, role, name string, opts ...AddOption) (Written, error) {
	wr, err := w.c.addPermission(ctx, role, name, opts)
	return w.c.token(ctx, wr, err)
}

// DelPermission is Client.DelPermission with its revision token.
func (w Writes) DelPermission(ctx context.Context, role, name string) (Written, error) {
	wr, err := w.c.delPermission(ctx, role, name)
	return w.c.token(ctx, wr, err)
}

// AddMembership is Client.AddMembership with its revision token.
func (w Writes) AddMembership(ctx context.Context, user, role string, opts ...AddOption) (Written, error) {
	wr, err := w.c.addMembership(ctx, user, role, opts)
	return w.c.token(ctx, wr, err)
}

// DelMembership is Client.DelMembership with its revision token.
func (w Writes) DelMembership(ctx context.Context, user, role string) (Written, error) {
	wr, err := w.c.delMembership(ctx, user, role)
	return w.c.token(ctx, wr, err)
}

// AddMembershipIn is Client.AddMembershipIn with its revision token.
func (w Writes) AddMembershipIn(ctx context.Context, scope, user, role string, opts ...AddOption) (Written, error) {
	wr, err := w.c.addMembershipIn(ctx, scope, user, role, opts)
	return w.c.token(ctx, wr, err)
}

// DelMembershipIn is Client.DelMembershipIn with its revision token.
func (w Writes) DelMembershipIn(ctx context.Context, scope, user, role string) (Written, error) {
	wr, err := w.c.delMembershipIn(ctx, scope, user, role)
	return w.c.token(ctx, wr, err)
}

// AddInheritance is Client.AddInheritance with its revision token.
func (w Writes) AddInheritance(ctx context.Context, role, parent string) (Written, error) {
	wr, err := w.c.addInheritance(ctx, role, parent)
	return w.c.token(ctx, wr, err)
}

// DelInheritance is Client.DelInheritance with its revision token.
func (w Writes) DelInheritance(ctx context.Context, role, parent string) (Written, error) {
	wr, err := w.c.delInheritance(ctx, role, parent)
	return w.c.token(ctx, wr, err)
}

// RenameUser is Client.RenameUser with its revision token.
func (w Writes) RenameUser(ctx context.Context, user, newName string, merge bool) (moved int, wr Written, err error) {
	moved, done, err := w.c.renameUser(ctx, user, newName, merge)
	if wr, err = w.c.token(ctx, done, err); err != nil {
		return 0, Written{}, err
	}
	return moved, wr, nil
}

// Batch is Client.Batch with the revision token of the whole batch.
func (w Writes) Batch(ctx context.Context, ops []Operation) ([]OpResult, Written, error) {
	results, done, err := w.c.batch(ctx, ops)
	wr, err := w.c.token(ctx, done, err)
	if err != nil {
		return nil, Written{}, err
	}
	return results, wr, nil
}

// ApplyPolicy is Client.ApplyPolicy with the revision token of what it
// did.
func (w Writes) ApplyPolicy(ctx context.Context, p Policy) ([]Operation, Written, error) {
	plan, done, err := w.c.applyPolicy(ctx, p)
	wr, err := w.c.token(ctx, done, err)
	if err != nil {
		return nil, Written{}, err
	}
	return plan, wr, nil
}
