package loginx

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx/internal/store"
	"github.com/rolegate/rolegate/loginx/loginapi"
)

// ErrUsernameTaken: a rename's new name is the RBAC name of another login
// user. Two login users never share a name, so the rename is refused.
var ErrUsernameTaken = loginapi.ErrUsernameTaken

// RenameUser is the hook of an RBAC rename: the login user whose RBAC name
// is old (if any) gets newName, so that the sessions issued from then on
// carry it. It runs in db, the rename's own transaction, so the login
// record and the memberships change together or not at all. Sessions
// issued before keep the old name until they expire or are refreshed.
// ErrUsernameTaken when newName belongs to another login user.
func (s *Service) RenameUser(ctx context.Context, db bun.IDB, old, newName string) (renamed bool, err error) {
	if old == newName {
		return false, nil
	}
	return store.RenameUsername(ctx, db, old, newName, s.cfg.Now().UnixMilli())
}
