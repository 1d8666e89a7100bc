package cache

import "context"

// Loader reads from the store what the cache keeps. Its reads must see
// every change whose invalidation returned before the read started (a read
// of the committed state does).
type Loader interface {
	// UserRoles returns the roles the user holds everywhere (global) and
	// those held in one scope only (byScope, nil when none).
	UserRoles(ctx context.Context, user string) (global []string, byScope map[string][]string, err error)
	// RoleGrants reads several roles at once (one read of the store for
	// them all, or a few): for each of roles it calls fn with the roles
	// its effective permissions are built from (sources: the role itself
	// and every role it inherits from; a change to any of them makes the
	// set stale) and, for each source in that order, the permissions
	// granted to it directly (empty for none); the role's effective
	// permissions are their union. For a role without inheritance,
	// sources is just the role. A role that does not exist has no
	// permissions. fn may keep sources but must not modify grants, whose
	// slices may be shared between roles (one slice per source for every
	// role of the read inheriting it); an error from fn is returned.
	RoleGrants(ctx context.Context, roles []string, fn func(role string, sources []string, grants [][]string) error) error
}
