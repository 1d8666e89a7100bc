package authz

import (
	"context"
	"errors"
	"fmt"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// RenameUser gives every membership of user, global and scoped, to
// newName, in one transaction with its audit record (action rename_user).
// ErrUserExists when newName already holds memberships, unless merge: the
// memberships of both are then merged (duplicates dropped). moved counts
// the memberships user held; 0 when it held none, or newName is user
// (nothing changes).
//
// On the host client (AUTH_CLIENT_KEY), whose user names are those of the
// login, the login user named user (if any) is renamed in the same
// transaction, so that sessions issued from then on carry newName; a
// newName held by another login user is ErrUserExists, merge or not.
// The cache drops both names, here and on other replicas.
func (c *Client) RenameUser(ctx context.Context, user, newName string, merge bool) (moved int, err error) {
	user, newName = middleware.NormalizeName(user), middleware.NormalizeName(newName)
	if err := checkNames("user", user, "new user name", newName); err != nil {
		return 0, err
	}
	login := c.az.login
	if c.az.host == nil || c.scope.NS != c.az.host.scope.NS {
		login = nil
	}
	ch := change{action: "rename_user", resource: c.renameResource(user, newName), user: user, renamed: newName}
	_, err = c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		if user == newName {
			return false, nil // nothing to move
		}
		n, err := storage.RenameUser(ctx, w.db, c.scope, user, newName, merge)
		if err != nil {
			return false, err
		}
		renamed := false
		if login != nil {
			if renamed, err = login.RenameUser(ctx, w.db, user, newName); errors.Is(err, loginx.ErrUsernameTaken) {
				return false, fmt.Errorf("%w: %s is the name of another login user", ErrUserExists, "the new user name")
			} else if err != nil {
				return false, err
			}
		}
		moved = n
		return n > 0 || renamed, nil
	})
	if err != nil {
		return 0, err
	}
	return moved, nil
}

// renameResource names a rename in the audit log: user:OLD->NEW, each
// name as the audit log holds user names (encrypted when names are).
func (c *Client) renameResource(user, newName string) string {
	return "user:" + c.scope.AuditUser(user) + "->" + c.scope.AuditUser(newName)
}
