package authz

import (
	"context"
	"encoding/binary"
	"errors"
	"time"
	"unsafe"

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
		// check's first step written out (the most common call saves a
		// call): a warm yes, or a warm no for an ASCII name (NFC already,
		// so not asked again), is the answer; the rest goes on from here.
		ok, warm := c.cache.Cached(user, "", permission)
		if warm && (ok || orBytes(permission)&0x8080808080808080 == 0) {
			return ok, nil
		}
		return c.checkFurther(ctx, "", user, permission, false, ok, warm, time.Time{})
	}
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
	if c.plain { // as in UserHasPermission
		ok, warm := c.cache.Cached(user, scope, permission)
		if warm && (ok || ascii(scope, "", permission)) {
			return ok, nil
		}
		return c.checkFurther(ctx, scope, user, permission, false, ok, warm, time.Time{})
	}
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
	if c.strict {
		if err := c.confirm(ctx); err != nil { // see consistency.go
			return false, err
		}
	}
	var start time.Time
	if c.metrics != nil && c.metrics.sampleWarm() {
		start = time.Now()
	}
	// The names as given first: a yes for a byte-exact cached name is
	// right whatever its normalisation form. Only a no or a miss pays for
	// the NFC forms (the store's), and a no is asked again with them.
	ok, warm := c.cached(scope, user, name, role)
	return c.checkFurther(ctx, scope, user, name, role, ok, warm, start)
}

// checkFurther is check past the first look at the cache (ok, warm): the
// look again with the NFC forms of a no or a miss, then the store on a
// miss. start is when the check began, when it is timed.
func (c *Client) checkFurther(ctx context.Context, scope, user, name string, role, ok, warm bool, start time.Time) (bool, error) {
	m := c.metrics
	// A warm entry was found under the user name as given, so that name is
	// the store's (NFC) form already: only the other two need the look.
	if !ok && !(warm && ascii(scope, "", name) || ascii(scope, user, name)) {
		ns, nu, nn := middleware.NormalizeName(scope), middleware.NormalizeName(user), middleware.NormalizeName(name)
		if ns != scope || nu != user || nn != name {
			scope, user, name = ns, nu, nn
			ok, warm = c.cached(scope, user, name, role)
		}
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

// ascii reports whether every byte of the names is ASCII (hence NFC): the
// common case, told eight bytes at a time.
func ascii(scope, user, name string) bool {
	return (orBytes(scope)|orBytes(user)|orBytes(name))&0x8080808080808080 == 0
}

// orBytes ORs the bytes of s together, eight at a time (the high bit of
// each byte of the result is set when some byte of s has it).
func orBytes(s string) uint64 {
	var or uint64
	for len(s) >= 8 {
		or |= binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		or |= uint64(s[i])
	}
	return or
}

// cached is the cache's hit path for a permission, or a role when role is
// set.
func (c *Client) cached(scope, user, name string, role bool) (ok, warm bool) {
	if role {
		return c.cache.CachedRole(user, scope, name)
	}
	return c.cache.Cached(user, scope, name)
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
