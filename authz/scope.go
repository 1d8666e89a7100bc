package authz

import (
	"context"
	"errors"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx/loginapi"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// Scoped memberships: a membership may hold in one scope only (a tenant,
// an org, a project: any valid name); a global membership (AddMembership)
// holds in every scope. The methods ending in In answer for one scope:
// they count the global memberships and those in that scope. The methods
// without a scope count global memberships only, as they always did.

// AddMembershipIn makes user a member of role in scope only;
// ErrRoleNotFound when the role does not exist. Its options are
// AddMembership's.
func (c *Client) AddMembershipIn(ctx context.Context, scope, user, role string, opts ...AddOption) (created bool, err error) {
	return answered(c.addMembershipIn(ctx, scope, user, role, opts))
}

func (c *Client) addMembershipIn(ctx context.Context, scope, user, role string, opts []AddOption) (written, error) {
	if err := checkNames("scope", scope, "user", user, "role", role); err != nil {
		return written{}, err
	}
	return c.putMembership(ctx, scope, user, role, c.scopedMemberResource(scope, user, role), opts)
}

// DelMembershipIn removes user's membership of role in scope; a global
// membership stays.
func (c *Client) DelMembershipIn(ctx context.Context, scope, user, role string) (deleted bool, err error) {
	return answered(c.delMembershipIn(ctx, scope, user, role))
}

func (c *Client) delMembershipIn(ctx context.Context, scope, user, role string) (written, error) {
	if err := checkNames("scope", scope, "user", user, "role", role); err != nil {
		return written{}, err
	}
	ch := change{action: "del_membership", resource: c.scopedMemberResource(scope, user, role), user: user,
		entries: entry(storage.FeedEntry{Op: "del_membership", User: user, Role: role, Scope: scope})}
	return c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		return storage.DeleteMembership(ctx, w.db, c.scope, scope, user, role)
	})
}

// HasMembershipIn reports whether user is a member of role globally or in
// scope.
func (c *Client) HasMembershipIn(ctx context.Context, scope, user, role string) (bool, error) {
	if err := checkNames("scope", scope, "user", user, "role", role); err != nil {
		return false, err
	}
	return readValue(ctx, c, func(ctx context.Context, db bun.IDB) (bool, error) {
		return storage.HasMembership(ctx, db, c.scope, scope, user, role)
	})
}

// GetUserRolesIn lists user's roles globally and in scope.
func (c *Client) GetUserRolesIn(ctx context.Context, scope, user string) ([]ScopedRole, error) {
	if err := checkNames("scope", scope, "user", user); err != nil {
		return nil, err
	}
	m, err := c.members(ctx, storage.RolesOfUser, scope, user)
	if err != nil {
		return nil, err
	}
	out := make([]ScopedRole, len(m))
	for i, e := range m {
		out[i] = ScopedRole{Role: e.Name, Scope: e.Scope}
	}
	return out, nil
}

// GetUserPermissionsIn lists the permissions user holds in scope: through
// global memberships and those in scope, inherited ones included.
func (c *Client) GetUserPermissionsIn(ctx context.Context, scope, user string) ([]string, error) {
	if err := checkNames("scope", scope, "user", user); err != nil {
		return nil, err
	}
	return readValue(ctx, c, func(ctx context.Context, db bun.IDB) ([]string, error) {
		_, global, err := storage.UserGrants(ctx, db, c.scope, "", user)
		if err != nil {
			return nil, err
		}
		_, scoped, err := storage.UserGrants(ctx, db, c.scope, scope, user)
		if err != nil {
			return nil, err
		}
		return mergeSorted(global, scoped), nil
	})
}

// GetRoleMembersIn lists role's members globally and in scope;
// ErrRoleNotFound when it does not exist.
func (c *Client) GetRoleMembersIn(ctx context.Context, scope, role string) ([]ScopedUser, error) {
	if err := checkNames("scope", scope, "role", role); err != nil {
		return nil, err
	}
	m, err := c.members(ctx, storage.MembersOfRole, scope, role)
	return scopedUsers(m), err
}

// WhichUsersCanIn lists the users holding the permission in scope, one
// entry per user: without Scope when a global membership grants it.
func (c *Client) WhichUsersCanIn(ctx context.Context, scope, name string) ([]ScopedUser, error) {
	if err := checkNames("scope", scope, "permission", name); err != nil {
		return nil, err
	}
	m, err := c.members(ctx, storage.UsersWithPermission, scope, name)
	return scopedUsers(m), err
}

func scopedUsers(m []storage.Member) []ScopedUser {
	out := make([]ScopedUser, len(m))
	for i, e := range m {
		out[i] = ScopedUser{User: e.Name, Scope: e.Scope}
	}
	return out
}

func (c *Client) scopedMemberResource(scope, user, role string) string {
	return c.memberResource(user, role) + "@" + scope
}

// mergeSorted merges two sorted, deduplicated lists into one.
func mergeSorted(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}

// RenameUser gives every membership of user, global and scoped, to
// newName, in one transaction with its audit record (action rename_user).
// ErrUserExists when newName already holds memberships, unless merge: the
// memberships of both are then merged (duplicates dropped). moved counts
// the memberships user held; 0 when it held none, or newName is user
// (nothing changes).
//
// On the host client (AUTH_CLIENT_KEY), whose user names are those of the
// login, the login user named user (if any) is renamed in the same
// transaction; its sessions follow it (they act under newName, in this
// process on return, on other replicas within their login poll); a
// newName held by another login user is ErrUserExists, merge or not.
// The cache drops both names, here and on other replicas.
func (c *Client) RenameUser(ctx context.Context, user, newName string, merge bool) (moved int, err error) {
	moved, _, err = c.renameUser(ctx, user, newName, merge)
	return moved, err
}

func (c *Client) renameUser(ctx context.Context, user, newName string, merge bool) (moved int, wr written, err error) {
	user, newName = middleware.NormalizeName(user), middleware.NormalizeName(newName)
	if err := checkNames("user", user, "new user name", newName); err != nil {
		return 0, written{}, err
	}
	login := c.az.login
	if c.az.host == nil || c.scope.NS != c.az.host.scope.NS {
		login = nil
	}
	// A longer name lengthens every membership moved: the quotas are
	// counted again (recount).
	ch := change{action: "rename_user", resource: c.renameResource(user, newName), user: user, renamed: newName, recount: true,
		entries: entry(storage.FeedEntry{Op: "rename_user", User: user, NewUser: newName, Merge: merge})}
	loginRenamed := false
	wr, err = c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		if user == newName {
			return false, nil // nothing to move
		}
		n, err := storage.RenameUser(ctx, w.db, c.scope, user, newName, merge)
		if err != nil {
			return false, err
		}
		renamed := false
		if login != nil {
			if renamed, err = login.RenameUser(ctx, w.db, user, newName); errors.Is(err, loginapi.ErrUsernameTaken) {
				return false, fmt.Errorf("%w: %s is the name of another login user", ErrUserExists, "the new user name")
			} else if err != nil {
				return false, err
			}
		}
		moved = n
		loginRenamed = renamed
		return n > 0 || renamed, nil
	})
	if err != nil {
		return 0, written{}, err
	}
	if loginRenamed {
		// Sessions follow their user's id: this process's learn the new
		// name now, other replicas' at their next poll. The rename has
		// committed, so a failure here only leaves it to that poll.
		if err := login.Sync(ctx); err != nil {
			c.az.log.Warn("login sessions not updated after a rename; the next poll will", "error", err)
		}
	}
	return moved, wr, nil
}

// renameResource names a rename in the audit log: user:OLD->NEW, each
// name as the audit log holds user names (encrypted when names are).
func (c *Client) renameResource(user, newName string) string {
	return "user:" + c.scope.AuditUser(user) + "->" + c.scope.AuditUser(newName)
}
