package store

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

func init() {
	storage.AddMigration("20261123000300", "login: user name source", loginUsernameSourceUp, loginUsernameSourceDown)
}

// loginUsernameSourceUp records where each login user's name came from.
// Users that exist already keep their name (and with it every grant made
// to it); they are marked "legacy" because their name was taken from
// preferred_username or the e-mail's local part, which a user may control,
// so that an admin can find and review them.
func loginUsernameSourceUp(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, `ALTER TABLE rolegate_login_users ADD COLUMN username_source TEXT NOT NULL DEFAULT '`+UsernameLegacy+`'`)
	return err
}

func loginUsernameSourceDown(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, `ALTER TABLE rolegate_login_users DROP COLUMN username_source`)
	return err
}
