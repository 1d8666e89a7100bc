package store

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

func init() {
	storage.AddMigration("20261123090500", "login: session token expiry", loginExpiryUp, loginExpiryDown)
}

// loginExpiryUp adds rolegate_login_sessions.expires_at: the expiry (Unix
// ms) of the last access token issued for the session, so that its
// revocation lives exactly as long as that token whatever the lifetime
// setting says later. Existing sessions get 0 ("unknown"); their
// revocations fall back to the current lifetime, and the session row
// itself still refuses their tokens.
func loginExpiryUp(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, `ALTER TABLE rolegate_login_sessions ADD COLUMN expires_at BIGINT NOT NULL DEFAULT 0`)
	return err
}

func loginExpiryDown(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, `ALTER TABLE rolegate_login_sessions DROP COLUMN expires_at`)
	return err
}
