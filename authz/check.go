package authz

import (
	"context"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// The per-client handle is what guards ask.
var (
	_ middleware.Checker      = (*Client)(nil)
	_ middleware.UserInterner = (*Client)(nil)
)

// InternUser points at the user's name inside its cache entry, so that a
// guard can hand the user to the handler without copying the string into
// an interface; nil when the user is not cached.
func (c *Client) InternUser(user string) *string {
	e, ok := c.cache.users.Load(user)
	if !ok {
		return nil
	}
	return &e.user
}

// UserHasPermission reports whether the user holds the permission through
// any role. It is answered from the decision cache: a hit takes no lock and
// allocates nothing; a miss reads the user's grants from the store once. A
// name that could never be stored is simply not found (false, nil). When
// the store cannot be reached and nothing fresh is cached, the error wraps
// ErrUnavailable: callers must refuse.
func (c *Client) UserHasPermission(ctx context.Context, user, permission string) (bool, error) {
	e, err := c.entry(ctx, user)
	if e == nil {
		return false, err
	}
	_, ok := e.perms[permission]
	return ok, nil
}

// UserHasRole reports whether the user is a member of the role, from the
// same cache as UserHasPermission.
func (c *Client) UserHasRole(ctx context.Context, user, role string) (bool, error) {
	e, err := c.entry(ctx, user)
	if e == nil {
		return false, err
	}
	_, ok := e.roles[role]
	return ok, nil
}

// entry is the user's cache entry: the cached one when fresh, else read
// from the store; nil (with a nil error) for a name that cannot exist.
func (c *Client) entry(ctx context.Context, user string) (*userEntry, error) {
	if e := c.cache.lookup(user); e != nil {
		return e, nil
	}
	return c.load(ctx, user)
}

// load is the miss path: validation lives here, not on the hit path, and
// an invalid user name is answered without touching the store or the
// cache, so junk names cannot fill memory.
func (c *Client) load(ctx context.Context, user string) (*userEntry, error) {
	if c.az.closed.Load() {
		return nil, ErrClosed
	}
	if !ValidName(user) {
		return nil, nil // not found, and not cached: junk cannot fill memory
	}
	c.cache.building.Add(1)
	defer c.cache.building.Add(-1)
	t := c.cache.ticket()
	roles, perms, err := storage.UserGrants(ctx, c.az.db, c.scope, user)
	if err != nil {
		return nil, storage.Classify(err)
	}
	return c.cache.store(user, t, roles, perms), nil
}

// UserHasPermissionIn reports whether the user holds the permission in
// scope: through a global membership or one in scope, inherited
// permissions included. Answered from the decision cache like
// UserHasPermission (a hit takes no lock); an invalid scope or user name
// is simply not found.
func (c *Client) UserHasPermissionIn(ctx context.Context, scope, user, permission string) (bool, error) {
	e, err := c.entry(ctx, user)
	if e == nil {
		return false, err
	}
	if _, ok := e.perms[permission]; ok {
		return true, nil
	}
	se, err := c.scopeEntry(ctx, e, scope)
	if se == nil {
		return false, err
	}
	_, ok := se.perms[permission]
	return ok, nil
}

// UserHasRoleIn reports whether the user is a member of the role globally
// or in scope, from the same cache.
func (c *Client) UserHasRoleIn(ctx context.Context, scope, user, role string) (bool, error) {
	e, err := c.entry(ctx, user)
	if e == nil {
		return false, err
	}
	if _, ok := e.roles[role]; ok {
		return true, nil
	}
	se, err := c.scopeEntry(ctx, e, scope)
	if se == nil {
		return false, err
	}
	_, ok := se.roles[role]
	return ok, nil
}

// scopeEntry is the scope part of the user's entry e: cached, or read from
// the store; nil (with a nil error) for a scope name that cannot exist.
func (c *Client) scopeEntry(ctx context.Context, e *userEntry, scope string) (*scopeEntry, error) {
	if se := c.cache.lookupScope(e, scope); se != nil {
		return se, nil
	}
	if !ValidName(scope) {
		return nil, nil
	}
	if c.az.closed.Load() {
		return nil, ErrClosed
	}
	c.cache.building.Add(1)
	defer c.cache.building.Add(-1)
	// When e went stale meanwhile, the part is stored into an entry no
	// lookup returns any more: harmless, and this check's answer is still
	// one that held at some point during the call.
	t := c.cache.ticket()
	roles, perms, err := storage.UserScopeGrants(ctx, c.az.db, c.scope, e.user, scope)
	if err != nil {
		return nil, storage.Classify(err)
	}
	return c.cache.storeScope(e, scope, t, roles, perms), nil
}

var _ middleware.ScopedChecker = (*Client)(nil)
