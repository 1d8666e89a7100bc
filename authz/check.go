package authz

import (
	"context"
	"time"

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
	return c.check(ctx, "", user, permission, false)
}

// UserHasRole reports whether the user is a member of the role, from the
// same cache as UserHasPermission.
func (c *Client) UserHasRole(ctx context.Context, user, role string) (bool, error) {
	return c.check(ctx, "", user, role, true)
}

// UserHasPermissionIn reports whether the user holds the permission in
// scope: through a global membership or one in scope, inherited
// permissions included. Answered from the decision cache like
// UserHasPermission (a hit takes no lock and allocates nothing, whatever
// the scope); an invalid user name is simply not found, and an invalid
// scope name holds no membership, so only global ones count there.
func (c *Client) UserHasPermissionIn(ctx context.Context, scope, user, permission string) (bool, error) {
	return c.check(ctx, scope, user, permission, false)
}

// UserHasRoleIn reports whether the user is a member of the role globally
// or in scope, from the same cache.
func (c *Client) UserHasRoleIn(ctx context.Context, scope, user, role string) (bool, error) {
	return c.check(ctx, scope, user, role, true)
}

// check is every check: the cache's hit path first, the store on a miss;
// name is a permission, or a role when role is set. With metrics on, it
// counts hits and misses, times every miss and one hit in 64.
func (c *Client) check(ctx context.Context, scope, user, name string, role bool) (bool, error) {
	// Names may come in any normalisation form; the store's are NFC. Free
	// (no allocation) for a name that is NFC already.
	scope, user, name = middleware.NormalizeName(scope), middleware.NormalizeName(user), middleware.NormalizeName(name)
	if c.az.cfg.Consistency == ConsistencyStrict {
		if err := c.confirm(ctx); err != nil { // see consistency.go
			return false, err
		}
	}
	m := c.az.metrics
	var start time.Time
	if m != nil && m.sampleWarm() {
		start = time.Now()
	}
	var ok, warm bool
	if role {
		ok, warm = c.cache.CachedRole(user, scope, name)
	} else {
		ok, warm = c.cache.Cached(user, scope, name)
	}
	if warm {
		if m != nil {
			m.hit(start)
		}
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
	if m != nil {
		start = time.Now()
	}
	var err error
	if role {
		ok, err = c.coldCheck(ctx, "role", scope, user, name, c.cache.HasRole)
	} else {
		ok, err = c.coldCheck(ctx, "permission", scope, user, name, c.cache.Allowed)
	}
	if m != nil {
		m.miss(start)
	}
	return ok, err
}

var _ middleware.ScopedChecker = (*Client)(nil)
