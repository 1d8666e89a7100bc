package authz

import (
	"context"
	"errors"

	"github.com/rolegate/rolegate/authz/internal/cache"
	"github.com/rolegate/rolegate/storage"
)

// The decision cache lives in authz/internal/cache: per client, per user
// their roles and per role its permission set, shared by its members. This
// file is its connection to the store: what it reads.

// storeLoader reads a client's users and roles for its cache.
type storeLoader struct{ c *Client }

var _ cache.Loader = storeLoader{}

// UserRoles reads the user's roles globally and per scope (only the
// scopes the user holds memberships in, so a check in any other scope
// adds nothing to the entry).
func (l storeLoader) UserRoles(ctx context.Context, user string) ([]string, map[string][]string, error) {
	global, byScope, err := storage.UserRoleSets(ctx, l.c.az.db, l.c.scope, user)
	l.countError(err)
	return global, byScope, storage.Classify(err)
}

// RoleEffective reads the role's effective permissions, inherited ones
// included, with the roles they come from (the role and its ancestors) as
// sources: a grant, a revoke or a link change on any of them drops the set.
func (l storeLoader) RoleEffective(ctx context.Context, role string) ([]string, []string, error) {
	perms, sources, err := storage.RoleEffective(ctx, l.c.az.db, l.c.scope, role)
	if err != nil {
		l.countError(err)
		return nil, nil, storage.Classify(err)
	}
	return perms, sources, nil
}

// countError counts a failed read in rolegate_store_errors_total, unless
// the caller gave up (its context ended).
func (l storeLoader) countError(err error) {
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		l.c.az.metrics.storeError(storeOpCacheRead)
	}
}

// cacheHolds reports whether the client's cache holds or is building
// anything that other replicas' changes could make stale (a build reading
// the store now could publish what a change made stale).
func (c *Client) cacheHolds() bool {
	return c.cache.Len() > 0 || c.cache.Roles() > 0 || c.cache.Building() > 0
}
