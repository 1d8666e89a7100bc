package store

import (
	"errors"

	"github.com/uptrace/bun"
)

// Errors of the login store.
var (
	// ErrNotFound means no login user or session has the given id.
	ErrNotFound = errors.New("login record not found")
	// ErrRefreshInvalid means a refresh token is unknown, expired, or
	// belongs to a revoked session.
	ErrRefreshInvalid = errors.New("refresh token invalid")
	// ErrRefreshReused means a refresh token that was already rotated was
	// presented again; its whole session (the token family) was revoked.
	ErrRefreshReused = errors.New("refresh token reused; session revoked")
	// ErrInactive means a session was not started because its user
	// is not active (or no longer exists).
	ErrInactive = errors.New("login user inactive")
)

// User is a person who logged in through an OAuth/OIDC provider,
// found by (Service, Subject). Times are Unix milliseconds, so that
// comparisons mean the same on SQLite and PostgreSQL.
type User struct {
	bun.BaseModel `bun:"table:rolegate_login_users"`

	// ID is the user's opaque id (the "_id" of the me record).
	ID string `bun:"id,pk"`
	// Service is the configured provider name the user logged in with.
	Service string `bun:"service"`
	// Subject is the provider's stable "sub" claim.
	Subject string `bun:"subject"`
	// Username is unique and is the user's RBAC user name. It is chosen at
	// creation and never changed by later logins.
	Username string `bun:"username"`
	// UsernameSource says where Username came from: UsernameFromSubject,
	// UsernameFromClaim(claim), or UsernameLegacy for users created
	// before names were derived that way.
	UsernameSource string `bun:"username_source"`
	// Name is the display name from the provider's claims.
	Name string `bun:"name"`
	// Email is the address from the claims ("" when none).
	Email string `bun:"email"`
	// EmailVerified is the provider's email_verified claim.
	EmailVerified bool `bun:"email_verified"`
	// AvatarURL is the provider's picture claim.
	AvatarURL string `bun:"avatar_url"`
	// UTCOffset is the user's offset from UTC in hours, from zoneinfo.
	UTCOffset float64 `bun:"utc_offset"`
	// Status is the presence status shown in the me record.
	Status string `bun:"status"`
	// StatusConnection is the connection status shown in the me record.
	StatusConnection string `bun:"status_connection"`
	// Active is false for a user who may no longer log in.
	Active bool `bun:"active"`
	// Preferences is a JSON object of the user's settings.
	Preferences string `bun:"preferences"`
	// CreatedAt and UpdatedAt are Unix milliseconds.
	CreatedAt int64 `bun:"created_at"`
	UpdatedAt int64 `bun:"updated_at"`
}

// Session is one login: the family of refresh tokens that rotate
// from it, and the id carried by its access tokens.
type Session struct {
	bun.BaseModel `bun:"table:rolegate_login_sessions"`

	// ID is the session id (the sid claim of its access tokens).
	ID string `bun:"id,pk"`
	// UserID is the User this session belongs to.
	UserID string `bun:"user_id"`
	// CreatedAt is Unix milliseconds.
	CreatedAt int64 `bun:"created_at"`
	// RevokedAt is Unix milliseconds, 0 while the session is live.
	RevokedAt int64 `bun:"revoked_at"`
	// ExpiresAt is when the last access token issued for the session
	// expires (Unix ms); 0 for sessions older than the column.
	ExpiresAt int64 `bun:"expires_at"`
}

// RefreshToken is a refresh token, stored only as its SHA-256 hex
// digest. A used token stays (UsedAt set) so that its reuse is detected.
type RefreshToken struct {
	bun.BaseModel `bun:"table:rolegate_login_refresh_tokens"`

	// Hash is the hex SHA-256 of the token.
	Hash string `bun:"hash,pk"`
	// SessionID is the family the token belongs to.
	SessionID string `bun:"session_id"`
	// ExpiresAt is Unix milliseconds.
	ExpiresAt int64 `bun:"expires_at"`
	// UsedAt is Unix milliseconds, 0 until the token is rotated.
	UsedAt int64 `bun:"used_at"`
}

// Revocation records a revoked session so that every replica can
// refuse its access tokens. ExpiresAt is when the last access token the
// session could hold expires; after it the row is only history.
type Revocation struct {
	bun.BaseModel `bun:"table:rolegate_login_revocations"`

	// ID increases with each revocation; pollers use it as a cursor.
	ID int64 `bun:"id,pk,autoincrement"`
	// SessionID is the revoked session.
	SessionID string `bun:"session_id"`
	// RevokedAt and ExpiresAt are Unix milliseconds.
	RevokedAt int64 `bun:"revoked_at"`
	ExpiresAt int64 `bun:"expires_at"`
}
