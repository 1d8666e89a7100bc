package cache

import "context"

// Loader reads from the store what the cache keeps. Its reads must see
// every change whose invalidation returned before the read started (a read
// of the committed state does).
type Loader interface {
	// UserRoles returns the roles the user holds everywhere (global) and
	// those held in one scope only (byScope, nil when none).
	UserRoles(ctx context.Context, user string) (global []string, byScope map[string][]string, err error)
	// RoleEffective reads several roles' effective sets at once (one read
	// of the store for them all, or a few): for each of roles it calls fn
	// with the role's effective permissions (its own grants plus inherited
	// ones) and the roles whose grants or links the set was built from,
	// the role itself included: a change to any of them makes the set
	// stale. For a role without inheritance, sources is just the role. A
	// role that does not exist has no permissions. fn may keep sources
	// but must not modify perms, which may be shared between roles; an
	// error from fn is returned.
	RoleEffective(ctx context.Context, roles []string, fn func(role string, perms, sources []string) error) error
}
