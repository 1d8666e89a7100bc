package authz

import (
	"context"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/cache"
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
	if c.plain {
		// The whole check is the cache's (see authz/internal/cache's
		// check.go): its warm look, and on a miss the miss path, whose
		// gate, tracing and metrics this client gave it (see newClient).
		ok, _, err := c.cache.Check(ctx, "", user, permission)
		return ok, err
	}
	return c.check(ctx, cache.Permission, "", user, permission)
}

// UserHasRole reports whether the user is a member of the role, from the
// same cache as UserHasPermission.
func (c *Client) UserHasRole(ctx context.Context, user, role string) (bool, error) {
	return c.check(ctx, cache.Role, "", user, role)
}

// UserHasPermissionIn reports whether the user holds the permission in
// scope: through a global membership or one in scope, inherited
// permissions included. Answered from the decision cache like
// UserHasPermission (a hit takes no lock and allocates nothing, whatever
// the scope); an invalid user name is simply not found, and an invalid
// scope name holds no membership, so only global ones count there.
func (c *Client) UserHasPermissionIn(ctx context.Context, scope, user, permission string) (bool, error) {
	if c.plain { // as in UserHasPermission
		ok, _, err := c.cache.Check(ctx, scope, user, permission)
		return ok, err
	}
	return c.check(ctx, cache.Permission, scope, user, permission)
}

// UserHasRoleIn reports whether the user is a member of the role globally
// or in scope, from the same cache.
func (c *Client) UserHasRoleIn(ctx context.Context, scope, user, role string) (bool, error) {
	return c.check(ctx, cache.Role, scope, user, role)
}

// check is every check: strict mode's confirmation first, then the
// cache's, which answers warm or goes on to the store; name is a
// permission or a role, by kind. With metrics on, it counts the hits and
// times one in 64 (the miss path's layer counts and times every miss).
func (c *Client) check(ctx context.Context, kind cache.Kind, scope, user, name string) (bool, error) {
	if c.strict {
		if err := c.confirm(ctx); err != nil { // see consistency.go
			return false, err
		}
	}
	return c.ask(ctx, kind, scope, user, name)
}

// ask is check past strict mode's confirmation.
func (c *Client) ask(ctx context.Context, kind cache.Kind, scope, user, name string) (bool, error) {
	m := c.metrics
	var start time.Time
	if m != nil && m.sampleWarm() {
		start = time.Now()
	}
	var ok, warm bool
	var err error
	if kind == cache.Role {
		ok, warm, err = c.cache.CheckRole(ctx, scope, user, name)
	} else {
		ok, warm, err = c.cache.Check(ctx, scope, user, name)
	}
	if warm && m != nil {
		m.hit(start)
	}
	return ok, err
}

var _ middleware.ScopedChecker = (*Client)(nil)

// The decision cache lives in authz/internal/cache: per client, per user
// their roles and per role its permission set, shared by its members. This
// file is its connection to the store: what it reads.

// storeLoader reads a client's users and roles for its cache.
type storeLoader struct{ c *Client }

var _ cache.Loader = storeLoader{}

// UserRoles reads the user's roles globally and per scope (only the
// scopes the user holds memberships in, so a check in any other scope
// adds nothing to the entry), as held at at.
func (l storeLoader) UserRoles(ctx context.Context, user string, at time.Time) (global []string, scoped []cache.ScopedRole, next time.Time, err error) {
	// Where the client's reads go: a standby that has replayed what the
	// cache reflects, else the primary (see standby.go).
	var read []storage.ScopedRole
	err = l.c.az.reader.Read(ctx, l.c.follow, false, func(ctx context.Context, db bun.IDB, _ func()) error {
		var err error
		global, read, next, err = storage.UserRoleSets(ctx, db, l.c.scopeAt(at), user)
		return err
	})
	l.countError(err)
	if err != nil {
		return nil, nil, time.Time{}, storage.Classify(err)
	}
	// Sorted by scope then role, each pair once, as the cache asks.
	if len(read) > 0 {
		scoped = make([]cache.ScopedRole, len(read))
		for i, m := range read {
			scoped[i] = cache.ScopedRole(m)
		}
	}
	return global, scoped, next, nil
}

// RoleGrants reads the roles' sources (each role and its ancestors: a
// grant, a revoke or a link change on any of them drops the role's set)
// with the grants of each, inherited permissions being the ancestors'
// grants. All of a user's roles are read in one statement (a few for
// thousands), not one per role.
func (l storeLoader) RoleGrants(ctx context.Context, roles []string, at time.Time, fn func(role string, sources []string, grants [][]string, next time.Time) error) error {
	err := l.c.az.reader.Read(ctx, l.c.follow, false, func(ctx context.Context, db bun.IDB, hand func()) error {
		return storage.RoleGrants(ctx, db, l.c.scopeAt(at), roles, func(role string, sources []string, grants [][]string, next time.Time) error {
			hand()
			return fn(role, sources, grants, next)
		})
	})
	if err != nil {
		l.countError(err)
		return storage.Classify(err)
	}
	return nil
}

// primaryRoleGrants is RoleGrants on the primary: the read of a write's
// own roles right after its commit (cache.InvalidateRoleRead).
func (l storeLoader) primaryRoleGrants(ctx context.Context, roles []string, at time.Time, fn func(role string, sources []string, grants [][]string, next time.Time) error) error {
	err := l.c.az.reader.Primary(ctx, func(ctx context.Context, db bun.IDB) error {
		return storage.RoleGrants(ctx, db, l.c.scopeAt(at), roles, fn)
	})
	if err != nil {
		l.countError(err)
		return storage.Classify(err)
	}
	return nil
}

// scopeAt is the client's scope reading bounds as at at.
func (c *Client) scopeAt(at time.Time) storage.Scope {
	s := c.scope
	s.Now = func() time.Time { return at }
	return s
}

// countError counts a failed read in rolegate_store_errors_total, unless
// the caller gave up (its context ended).
func (l storeLoader) countError(err error) {
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		l.c.az.metrics.storeError(storeOpCacheRead)
	}
}
