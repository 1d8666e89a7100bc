package cache

import (
	"context"
	"time"
)

// Loader reads from the store what the cache keeps. Its reads must see
// every change whose invalidation returned before the read started (a read
// of the committed state does).
//
// Memberships and grants may hold for a time only: each read counts those
// held at the time at it is given, and says when the first of the rows it
// read (held or not) starts or ends after at (next; zero when none will),
// when its answer would change with no write.
type Loader interface {
	// UserRoles returns the roles the user holds everywhere (global) and
	// those held in one scope only (scoped, nil when none), at at.
	// scoped should come sorted by scope then role, each pair once (a
	// user's thousands of scopes are then indexed with no sort); the
	// cache sorts a copy when it does not. The cache keeps the strings
	// but not the slices.
	UserRoles(ctx context.Context, user string, at time.Time) (global []string, scoped []ScopedRole, next time.Time, err error)
	// RoleGrants reads several roles at once (one read of the store for
	// them all, or a few): for each of roles it calls fn with the roles
	// its effective permissions are built from (sources: the role itself
	// and every role it inherits from; a change to any of them makes the
	// set stale) and, for each source in that order, the permissions
	// granted to it directly and held at at (empty for none); the role's
	// effective permissions are their union, and next is the first
	// boundary of the sources' grants. For a role without inheritance,
	// sources is just the role. A role that does not exist has no
	// permissions. fn may keep sources but must not modify grants, whose
	// slices may be shared between roles (one slice per source for every
	// role of the read inheriting it); an error from fn is returned.
	RoleGrants(ctx context.Context, roles []string, at time.Time, fn func(role string, sources []string, grants [][]string, next time.Time) error) error
}

// RoleRead reads roles as Loader.RoleGrants does (see InvalidateRoleRead).
type RoleRead func(ctx context.Context, roles []string, at time.Time, fn func(role string, sources []string, grants [][]string, next time.Time) error) error
