package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// CreateSession stores a new session with its first refresh token
// (whose SessionID is set to s.ID), in one transaction that first checks,
// under a lock on the user's row, that the user is active: a concurrent
// SetUserActive(false) either commits first (the login is refused
// with ErrInactive) or waits for this transaction and then revokes
// the new session with the others.
func CreateSession(ctx context.Context, db bun.IDB, s *Session, first *RefreshToken) error {
	first.SessionID = s.ID
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		q := tx.NewSelect().Model((*User)(nil)).Column("active").Where("id = ?", s.UserID)
		if storage.IsPostgres(tx) {
			// SQLite transactions take the write lock at BEGIN
			// (_txlock=immediate), which serialises them already.
			q = q.For("SHARE")
		}
		var active bool
		if err := q.Scan(ctx, &active); errors.Is(err, sql.ErrNoRows) || (err == nil && !active) {
			return ErrInactive
		} else if err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(s).Exec(ctx); err != nil {
			return err
		}
		_, err := tx.NewInsert().Model(first).Exec(ctx)
		return err
	})
	if errors.Is(err, ErrInactive) {
		return err
	}
	return storage.Classify(err)
}

// SessionState is what the token check needs to know of a session.
type SessionState struct {
	UserID string
	// Username is the user's RBAC name now: a session follows its user.
	Username string
	// Live is true when the session is not revoked and its user is active.
	Live bool
	// ExpiresAt is the expiry of its last access token (Unix ms, 0 when
	// unknown).
	ExpiresAt int64
}

// SessionStateByID returns the state of a session, or
// ErrNotFound when no such session exists.
func SessionStateByID(ctx context.Context, db bun.IDB, id string) (SessionState, error) {
	var row struct {
		UserID    string `bun:"user_id"`
		Username  string `bun:"username"`
		RevokedAt int64  `bun:"revoked_at"`
		ExpiresAt int64  `bun:"expires_at"`
		Active    bool   `bun:"active"`
	}
	err := db.NewRaw(`SELECT s.user_id, u.username, s.revoked_at, s.expires_at, u.active
		FROM rolegate_login_sessions s JOIN rolegate_login_users u ON u.id = s.user_id
		WHERE s.id = ?`, id).Scan(ctx, &row)
	if errors.Is(err, sql.ErrNoRows) {
		return SessionState{}, ErrNotFound
	}
	if err != nil {
		return SessionState{}, storage.Classify(err)
	}
	return SessionState{UserID: row.UserID, Username: row.Username, Live: row.RevokedAt == 0 && row.Active, ExpiresAt: row.ExpiresAt}, nil
}

// SessionByID returns the session with the given id, or
// ErrNotFound.
func SessionByID(ctx context.Context, db bun.IDB, id string) (*Session, error) {
	var s Session
	err := db.NewSelect().Model(&s).Where("id = ?", id).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, storage.Classify(err)
	}
	return &s, nil
}

// RotateRefresh exchanges the refresh token whose digest is oldHash
// for next (whose SessionID is set here) and returns the session. An
// unknown or expired token, or one of a revoked session, gives
// ErrRefreshInvalid. A token already used, including one that loses a
// concurrent race, revokes the session (see RevokeSession for
// revocationExpires) and gives ErrRefreshReused. On success the session's
// ExpiresAt is raised to accessExpires, the expiry of the access token the
// caller is about to issue.
func RotateRefresh(ctx context.Context, db bun.IDB, oldHash string, next *RefreshToken, now, accessExpires, revocationExpires int64) (*Session, error) {
	var old RefreshToken
	err := db.NewSelect().Model(&old).Where("hash = ?", oldHash).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrRefreshInvalid
	}
	if err != nil {
		return nil, storage.Classify(err)
	}
	s, err := SessionByID(ctx, db, old.SessionID)
	if errors.Is(err, ErrNotFound) {
		return nil, ErrRefreshInvalid
	}
	if err != nil {
		return nil, err
	}
	if s.RevokedAt != 0 {
		return nil, ErrRefreshInvalid
	}
	if old.UsedAt != 0 {
		return nil, reused(ctx, db, s.ID, now, revocationExpires)
	}
	if old.ExpiresAt <= now {
		return nil, ErrRefreshInvalid
	}
	next.SessionID = s.ID
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		// The session row first, as revocations lock it (then its refresh
		// tokens): the same order cannot deadlock. Still live: a
		// concurrent revocation either committed first, or waits for this
		// transaction and then deletes the new refresh token.
		res, err := tx.NewUpdate().Model((*Session)(nil)).
			Set("expires_at = CASE WHEN expires_at > ? THEN expires_at ELSE ? END", accessExpires, accessExpires).
			Where("id = ? AND revoked_at = 0", s.ID).Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrRefreshInvalid
		}
		res, err = tx.NewUpdate().Model((*RefreshToken)(nil)).Set("used_at = ?", now).
			Where("hash = ? AND used_at = 0", oldHash).Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrRefreshReused
		}
		_, err = tx.NewInsert().Model(next).Exec(ctx)
		return err
	})
	if errors.Is(err, ErrRefreshReused) {
		return nil, reused(ctx, db, s.ID, now, revocationExpires)
	}
	if errors.Is(err, ErrRefreshInvalid) {
		return nil, err
	}
	if err != nil {
		return nil, storage.Classify(err)
	}
	return s, nil
}

func reused(ctx context.Context, db bun.IDB, sessionID string, now, revocationExpires int64) error {
	if _, err := RevokeSession(ctx, db, sessionID, now, revocationExpires); err != nil {
		return err
	}
	return ErrRefreshReused
}

// RevokeSession revokes a live session: it marks it, deletes its
// refresh tokens, and records a revocation for the other replicas, in one
// transaction. The revocation expires with the session's last access
// token (its ExpiresAt), so that it lives as long as the token it revokes
// whatever the lifetime setting is now; revocationExpires (Unix ms) is
// used only for sessions whose expiry is unknown (older than the column).
// It reports whether the session was live.
func RevokeSession(ctx context.Context, db bun.IDB, sessionID string, now, revocationExpires int64) (bool, error) {
	var revoked bool
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		revoked, err = revokeSession(ctx, tx, sessionID, now, revocationExpires)
		return err
	})
	return revoked, storage.Classify(err)
}

func revokeSession(ctx context.Context, tx bun.IDB, sessionID string, now, revocationExpires int64) (bool, error) {
	res, err := tx.NewUpdate().Model((*Session)(nil)).Set("revoked_at = ?", now).
		Where("id = ? AND revoked_at = 0", sessionID).Exec(ctx)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	var exp int64
	if err := tx.NewSelect().Model((*Session)(nil)).Column("expires_at").Where("id = ?", sessionID).Scan(ctx, &exp); err != nil {
		return false, err
	}
	if exp > 0 {
		revocationExpires = exp
	}
	if _, err := tx.NewDelete().Model((*RefreshToken)(nil)).Where("session_id = ?", sessionID).Exec(ctx); err != nil {
		return false, err
	}
	rev := &Revocation{SessionID: sessionID, RevokedAt: now, ExpiresAt: revocationExpires}
	_, err = tx.NewInsert().Model(rev).Exec(ctx)
	return err == nil, err
}

// Revocations returns the revocations still in force at now (Unix
// ms) whose id is above afterID or that were revoked at or after
// revokedSince (Unix ms), ordered by id. Pollers pass the highest id they
// have seen and a time some margin in the past, so that a revocation whose
// transaction committed after a higher id was seen is still picked up.
func Revocations(ctx context.Context, db bun.IDB, afterID, revokedSince, now int64) ([]Revocation, error) {
	var out []Revocation
	err := db.NewSelect().Model(&out).
		Where("expires_at > ?", now).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("id > ?", afterID).WhereOr("revoked_at >= ?", revokedSince)
		}).
		OrderExpr("id").Scan(ctx)
	if err != nil {
		return nil, storage.Classify(err)
	}
	return out, nil
}

// Prune deletes what can no longer matter at now (Unix ms):
// revocations and renames past their expiry and expired refresh tokens.
func Prune(ctx context.Context, db bun.IDB, now int64) error {
	if _, err := db.NewDelete().Model((*Revocation)(nil)).Where("expires_at <= ?", now).Exec(ctx); err != nil {
		return storage.Classify(err)
	}
	if _, err := db.NewDelete().Model((*Rename)(nil)).Where("expires_at <= ?", now).Exec(ctx); err != nil {
		return storage.Classify(err)
	}
	_, err := db.NewDelete().Model((*RefreshToken)(nil)).Where("expires_at <= ?", now).Exec(ctx)
	return storage.Classify(err)
}
