package authz

import (
	"context"

	"github.com/rolegate/rolegate/middleware"
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
	return c.cache.InternUser(user)
}

// UserHasPermission reports whether the user holds the permission through
// any role. It is answered from the decision cache: a hit takes no lock and
// allocates nothing; a miss reads the user's roles from the store once
// (and the permissions of those roles no other member brought in yet). A
// name that could never be stored is simply not found (false, nil). When
// the store cannot be reached and nothing fresh is cached, the error wraps
// ErrUnavailable: callers must refuse.
func (c *Client) UserHasPermission(ctx context.Context, user, permission string) (bool, error) {
	// Names may come in any normalisation form; the store's are NFC. Free
	// (no allocation) for a name that is NFC already.
	user, permission = middleware.NormalizeName(user), middleware.NormalizeName(permission)
	if ok, warm := c.cache.Cached(user, "", permission); warm {
		return ok, nil
	}
	if c.az.closed.Load() {
		return false, ErrClosed
	}
	if !ValidName(user) {
		// Validation lives on the miss path, not the hit path; a junk
		// name is answered without the store or the cache, so junk names
		// cannot fill memory.
		return false, nil
	}
	return c.coldCheck(ctx, "permission", "", user, permission, c.cache.Allowed)
}

// UserHasRole reports whether the user is a member of the role, from the
// same cache as UserHasPermission.
func (c *Client) UserHasRole(ctx context.Context, user, role string) (bool, error) {
	user, role = middleware.NormalizeName(user), middleware.NormalizeName(role)
	if ok, warm := c.cache.CachedRole(user, "", role); warm {
		return ok, nil
	}
	if c.az.closed.Load() {
		return false, ErrClosed
	}
	if !ValidName(user) {
		// Validation lives on the miss path, not the hit path; a junk
		// name is answered without the store or the cache, so junk names
		// cannot fill memory.
		return false, nil
	}
	return c.coldCheck(ctx, "role", "", user, role, c.cache.HasRole)
}

// UserHasPermissionIn reports whether the user holds the permission in
// scope: through a global membership or one in scope, inherited
// permissions included. Answered from the decision cache like
// UserHasPermission (a hit takes no lock and allocates nothing, whatever
// the scope); an invalid user name is simply not found, and an invalid
// scope name holds no membership, so only global ones count there.
func (c *Client) UserHasPermissionIn(ctx context.Context, scope, user, permission string) (bool, error) {
	scope, user, permission = middleware.NormalizeName(scope), middleware.NormalizeName(user), middleware.NormalizeName(permission)
	if ok, warm := c.cache.Cached(user, scope, permission); warm {
		return ok, nil
	}
	if c.az.closed.Load() {
		return false, ErrClosed
	}
	if !ValidName(user) {
		return false, nil
	}
	return c.coldCheck(ctx, "permission", scope, user, permission, c.cache.Allowed)
}

// UserHasRoleIn reports whether the user is a member of the role globally
// or in scope, from the same cache.
func (c *Client) UserHasRoleIn(ctx context.Context, scope, user, role string) (bool, error) {
	scope, user, role = middleware.NormalizeName(scope), middleware.NormalizeName(user), middleware.NormalizeName(role)
	if ok, warm := c.cache.CachedRole(user, scope, role); warm {
		return ok, nil
	}
	if c.az.closed.Load() {
		return false, ErrClosed
	}
	if !ValidName(user) {
		return false, nil
	}
	return c.coldCheck(ctx, "role", scope, user, role, c.cache.HasRole)
}

var _ middleware.ScopedChecker = (*Client)(nil)
