package authz

import (
	"context"
	"fmt"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
)

// The default-role pattern: every user the guards see holds one role
// (Config.DefaultRole, AUTH_DEFAULT_ROLE) under the host client, so that
// "every signed-in user may read" is one grant to that role. Open creates
// the role when it is missing; the guards' resolver adds each user it
// resolves (from the host's resolver or a login session) to it on first
// sight; AddMemberships backfills the users who existed before adoption.
//
// "First sight" is read from the decision cache, not remembered beside it:
// a user who is not a member when resolved is added. So the role is held
// by everyone the guards see; to narrow what it allows, take permissions
// off the role rather than users out of it.

const defaultRoleDescription = "held by every user (Config.DefaultRole)"

// initDefaultRole creates the default role under the host client.
func (az *Authz) initDefaultRole(ctx context.Context) error {
	if az.cfg.DefaultRole == "" {
		return nil
	}
	if az.host == nil {
		return fmt.Errorf("AUTH_DEFAULT_ROLE: %w", ErrNoClientKey)
	}
	if _, err := az.host.AddRole(ctx, az.cfg.DefaultRole, defaultRoleDescription); err != nil {
		return fmt.Errorf("AUTH_DEFAULT_ROLE: %w", err)
	}
	return nil
}

// withDefaultRole wraps the guards' resolver so that every user it
// resolves is a member of the default role before the guard checks. A
// member costs one cache lookup (lock-free on a hit); a newcomer one
// write. A failed write refuses nothing by itself: the guard then decides
// on what the user holds, and the next request tries again.
func (az *Authz) withDefaultRole(inner middleware.Resolver) middleware.Resolver {
	role := az.cfg.DefaultRole
	return func(c *gin.Context) (string, error) {
		user, err := inner(c)
		if err != nil || user == "" {
			return user, err
		}
		ctx := c.Request.Context()
		if member, err := az.host.UserHasRole(ctx, user, role); err == nil && !member {
			if _, err := az.host.AddMembership(ctx, user, role); err != nil {
				az.log.Warn("default role: cannot add user", "role", role, "error", err)
			}
		}
		return user, nil
	}
}

// AddMemberships adds every one of users to role, in one call: the backfill
// of a default role for the users a host had before adopting rolegate
// (client.AddMemberships(ctx, "member", allUserNames)). It stops at the
// first error, reporting how many memberships it created before it; users
// already members are skipped and not counted. Each membership is its own
// audited change, so a retry after an error picks up where it stopped.
func (c *Client) AddMemberships(ctx context.Context, role string, users []string) (added int, err error) {
	if err := checkNames("role", role); err != nil {
		return 0, err
	}
	for _, u := range users {
		created, err := c.AddMembership(ctx, u, role)
		if err != nil {
			return added, fmt.Errorf("user %q: %w", u, err)
		}
		if created {
			added++
		}
	}
	return added, nil
}
