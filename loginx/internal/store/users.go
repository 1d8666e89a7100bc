package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// Where a login user's name came from (User.UsernameSource).
const (
	// UsernameFromSubject: "<service>:<subject>", unique by construction.
	UsernameFromSubject = "subject"
	// UsernameLegacy marks users created before user names were derived
	// from the subject: their name came from preferred_username or the
	// e-mail's local part, which the user may control. They keep it, so
	// that their grants keep working; an admin may review them.
	UsernameLegacy = "legacy"
)

// UsernameFromClaim is the source of a name taken from a verified claim.
func UsernameFromClaim(claim string) string { return "claim:" + claim }

// ErrUsernameTaken means a new user's name is already held by another
// (service, subject): the login is refused, never given another name.
var ErrUsernameTaken = errors.New("storage: the user name belongs to another login user")

// UpsertUser finds the user by (u.Service, u.Subject). When found, it
// updates the profile fields (Name, Email, EmailVerified, AvatarURL,
// UTCOffset, Status, StatusConnection) from u and keeps the rest (ID,
// Username, Active, Preferences, CreatedAt). When absent, it asks newName
// for the user name and its source (an error from newName is returned as
// it is) and creates the user with it; ErrUsernameTaken when another
// (service, subject) holds that name. On return *u is the stored record.
// Concurrent first logins of the same person create one user: inserts
// never overwrite, and a lost race is re-read. Accounts are never merged.
func UpsertUser(ctx context.Context, db bun.IDB, u *User, now int64, newName func() (name, source string, err error)) (created bool, err error) {
	found, err := updateUser(ctx, db, u, now)
	if err != nil || found {
		return false, err
	}
	rec := *u
	if rec.Username, rec.UsernameSource, err = newName(); err != nil {
		return false, err
	}
	if rec.ID, err = newID(); err != nil {
		return false, err
	}
	rec.Active = true
	if rec.Preferences == "" {
		rec.Preferences = "{}"
	}
	rec.CreatedAt, rec.UpdatedAt = now, now
	res, err := db.NewInsert().Model(&rec).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return false, storage.Classify(err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return false, storage.Classify(err)
	} else if n == 1 {
		*u = rec
		return true, nil
	}
	// Either the same person was created concurrently (re-read them) or
	// the name is another's.
	if found, err = updateUser(ctx, db, u, now); err != nil || found {
		return false, err
	}
	return false, ErrUsernameTaken
}

// updateUser updates the profile of the user with u's identity and
// loads the stored record into u.
func updateUser(ctx context.Context, db bun.IDB, u *User, now int64) (bool, error) {
	var ex User
	err := db.NewSelect().Model(&ex).
		Where("service = ? AND subject = ?", u.Service, u.Subject).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, storage.Classify(err)
	}
	ex.Name, ex.Email, ex.EmailVerified = u.Name, u.Email, u.EmailVerified
	ex.AvatarURL, ex.UTCOffset = u.AvatarURL, u.UTCOffset
	ex.Status, ex.StatusConnection = u.Status, u.StatusConnection
	ex.UpdatedAt = now
	_, err = db.NewUpdate().Model(&ex).
		Column("name", "email", "email_verified", "avatar_url", "utc_offset", "status", "status_connection", "updated_at").
		WherePK().Exec(ctx)
	if err != nil {
		return false, storage.Classify(err)
	}
	*u = ex
	return true, nil
}

// UserByID returns the user with the given id, or ErrNotFound.
func UserByID(ctx context.Context, db bun.IDB, id string) (*User, error) {
	var u User
	err := db.NewSelect().Model(&u).Where("id = ?", id).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, storage.Classify(err)
	}
	return &u, nil
}

// SetUserActive activates or deactivates a user. Deactivating also
// revokes every live session of the user in the same transaction, with
// revocations that expire at revocationExpires (Unix ms), so that no
// replica accepts the user's access tokens any more.
func SetUserActive(ctx context.Context, db bun.IDB, id string, active bool, now, revocationExpires int64) error {
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model((*User)(nil)).
			Set("active = ?", active).Set("updated_at = ?", now).
			Where("id = ?", id).Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrNotFound
		}
		if active {
			return nil
		}
		var ids []string
		if err := tx.NewSelect().Model((*Session)(nil)).Column("id").
			Where("user_id = ? AND revoked_at = 0", id).Scan(ctx, &ids); err != nil {
			return err
		}
		for _, sid := range ids {
			if _, err := revokeSession(ctx, tx, sid, now, revocationExpires); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, ErrNotFound) {
		return err
	}
	return storage.Classify(err)
}

// newID returns a random 128-bit hex id.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// UsernameRenamed is the source of a name given by an RBAC rename
// (RenameUsername).
const UsernameRenamed = "renamed"

// RenameUsername gives the login user whose RBAC name is old the name
// newName, in the caller's transaction, and records the rename for every
// replica's sessions (see Rename; it expires at expires, Unix ms): renamed
// is false when no login user has old. ErrUsernameTaken when another login
// user holds newName.
func RenameUsername(ctx context.Context, db bun.IDB, old, newName string, now, expires int64) (renamed bool, err error) {
	taken, err := db.NewSelect().Model((*User)(nil)).Where("username = ?", newName).Exists(ctx)
	if err != nil {
		return false, storage.Classify(err)
	}
	if taken {
		return false, ErrUsernameTaken
	}
	var id string
	err = db.NewSelect().Model((*User)(nil)).Column("id").Where("username = ?", old).Limit(1).Scan(ctx, &id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, storage.Classify(err)
	}
	_, err = db.NewUpdate().Model((*User)(nil)).
		Set("username = ?", newName).Set("username_source = ?", UsernameRenamed).Set("updated_at = ?", now).
		Where("id = ?", id).Exec(ctx)
	if storage.IsUniqueViolation(err) {
		// A first login or another rename took newName after the check.
		return false, ErrUsernameTaken
	}
	if err != nil {
		return false, storage.Classify(err)
	}
	_, err = db.NewInsert().Model(&Rename{UserID: id, RenamedAt: now, ExpiresAt: expires}).Exec(ctx)
	return err == nil, storage.Classify(err)
}
