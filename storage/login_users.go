package storage

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/uptrace/bun"
)

// maxUsernameAttempts bounds the search for a free username.
const maxUsernameAttempts = 64

// UpsertLoginUser finds the user by (u.Service, u.Subject). When found, it
// updates the profile fields (Name, Email, EmailVerified, AvatarURL,
// UTCOffset, Status, StatusConnection) from u and keeps the rest (ID,
// Username, Active, Preferences, CreatedAt). When absent, it creates the
// user with the first free name that username(0), username(1), ... yields.
// On return *u is the stored record. Concurrent first logins of the same
// person create one user: inserts never overwrite, and a lost race is
// re-read. Accounts are never merged by e-mail.
func UpsertLoginUser(ctx context.Context, db bun.IDB, u *LoginUser, now int64, username func(attempt int) string) (created bool, err error) {
	for attempt := 0; attempt < maxUsernameAttempts; attempt++ {
		found, err := updateLoginUser(ctx, db, u, now)
		if err != nil || found {
			return false, err
		}
		rec := *u
		if rec.ID, err = newLoginID(); err != nil {
			return false, err
		}
		rec.Username = username(attempt)
		rec.Active = true
		if rec.Preferences == "" {
			rec.Preferences = "{}"
		}
		rec.CreatedAt, rec.UpdatedAt = now, now
		res, err := db.NewInsert().Model(&rec).On("CONFLICT DO NOTHING").Exec(ctx)
		if err != nil {
			return false, Classify(err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return false, Classify(err)
		} else if n == 1 {
			*u = rec
			return true, nil
		}
		// Either the same person was created concurrently (the next
		// updateLoginUser finds them) or the username is taken.
	}
	return false, fmt.Errorf("storage: no free username after %d attempts", maxUsernameAttempts)
}

// updateLoginUser updates the profile of the user with u's identity and
// loads the stored record into u.
func updateLoginUser(ctx context.Context, db bun.IDB, u *LoginUser, now int64) (bool, error) {
	var ex LoginUser
	err := db.NewSelect().Model(&ex).
		Where("service = ? AND subject = ?", u.Service, u.Subject).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, Classify(err)
	}
	ex.Name, ex.Email, ex.EmailVerified = u.Name, u.Email, u.EmailVerified
	ex.AvatarURL, ex.UTCOffset = u.AvatarURL, u.UTCOffset
	ex.Status, ex.StatusConnection = u.Status, u.StatusConnection
	ex.UpdatedAt = now
	_, err = db.NewUpdate().Model(&ex).
		Column("name", "email", "email_verified", "avatar_url", "utc_offset", "status", "status_connection", "updated_at").
		WherePK().Exec(ctx)
	if err != nil {
		return false, Classify(err)
	}
	*u = ex
	return true, nil
}

// LoginUserByID returns the user with the given id, or ErrLoginNotFound.
func LoginUserByID(ctx context.Context, db bun.IDB, id string) (*LoginUser, error) {
	var u LoginUser
	err := db.NewSelect().Model(&u).Where("id = ?", id).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrLoginNotFound
	}
	if err != nil {
		return nil, Classify(err)
	}
	return &u, nil
}

// SetLoginUserActive activates or deactivates a user. Deactivating also
// revokes every live session of the user in the same transaction, with
// revocations that expire at revocationExpires (Unix ms), so that no
// replica accepts the user's access tokens any more.
func SetLoginUserActive(ctx context.Context, db bun.IDB, id string, active bool, now, revocationExpires int64) error {
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model((*LoginUser)(nil)).
			Set("active = ?", active).Set("updated_at = ?", now).
			Where("id = ?", id).Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrLoginNotFound
		}
		if active {
			return nil
		}
		var ids []string
		if err := tx.NewSelect().Model((*LoginSession)(nil)).Column("id").
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
	if errors.Is(err, ErrLoginNotFound) {
		return err
	}
	return Classify(err)
}

// newLoginID returns a random 128-bit hex id.
func newLoginID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}
