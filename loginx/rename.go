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
// is old (if any) gets newName. It runs in db, the rename's own
// transaction, so the login record and the memberships change together or
// not at all. Sessions follow their user's id: once the transaction
// commits, every session of the user acts under newName, on each replica
// at its next poll (RevocationPollInterval), or in this process at once
// after Sync. Tokens keep the name claim they were issued with; guards do
// not read it. ErrUsernameTaken when newName belongs to another login user.
func (s *Service) RenameUser(ctx context.Context, db bun.IDB, old, newName string) (renamed bool, err error) {
	if old == newName {
		return false, nil
	}
	now := s.cfg.Now()
	// Kept while a token issued before the rename may still be presented,
	// and past the poll margin, so that every replica sees it.
	expires := now.Add(s.cfg.AccessTTL + SessionLeeway + pollOverlap)
	return store.RenameUsername(ctx, db, old, newName, now.UnixMilli(), expires.UnixMilli())
}

// Sync reads the revocations and renames committed since the last poll,
// so that this process applies them now rather than at its next poll. A
// caller that renamed a user (RenameUser) or revoked sessions in a
// transaction of its own calls it after the commit.
func (s *Service) Sync(ctx context.Context) error {
	return s.sessions.poll(ctx, s.cfg.Now())
}
