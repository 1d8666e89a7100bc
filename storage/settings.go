package storage

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"
)

// GetOrInitSetting returns the value stored under key, creating it with
// init when absent. When replicas race, the first insert wins and every
// caller returns that value.
func GetOrInitSetting(ctx context.Context, db bun.IDB, key string, init func() (string, error)) (string, error) {
	if v, ok, err := GetSetting(ctx, db, key); err != nil || ok {
		return v, err
	}
	v, err := init()
	if err != nil {
		return "", err
	}
	if _, err := db.NewRaw("INSERT INTO rolegate_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", key, v).Exec(ctx); err != nil {
		return "", Classify(err)
	}
	v, ok, err := GetSetting(ctx, db, key)
	if err == nil && !ok {
		err = errors.New("storage: setting vanished after insert: " + key)
	}
	return v, err
}

// GetSetting returns the value stored under key, and whether there was one.
func GetSetting(ctx context.Context, db bun.IDB, key string) (string, bool, error) {
	var v string
	err := db.NewRaw("SELECT value FROM rolegate_settings WHERE key = ?", key).Scan(ctx, &v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, Classify(err)
	}
	return v, true, nil
}

// DeleteSetting removes key when it still holds value (so that a replica
// never deletes a value it did not read). It is meant for values that must
// not linger: on SQLite the row is deleted with secure_delete on (its bytes
// are overwritten, not left in a free page) and the WAL is checkpointed
// and truncated, so that the old value is no longer in any of the files.
// (PostgreSQL keeps the dead row version until VACUUM.)
func DeleteSetting(ctx context.Context, db bun.IDB, key, value string) error {
	const del = "DELETE FROM rolegate_settings WHERE key = ? AND value = ?"
	bdb, ok := db.(*bun.DB)
	if !ok || IsPostgres(db) {
		_, err := db.NewRaw(del, key, value).Exec(ctx)
		return Classify(err)
	}
	conn, done, err := secureDeleteConn(ctx, bdb)
	if err != nil {
		return err
	}
	defer done()
	if _, err := conn.NewRaw(del, key, value).Exec(ctx); err != nil {
		return Classify(err)
	}
	_, err = conn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return Classify(err)
}

// secureDeleteConn takes a SQLite connection of its own with secure_delete
// on, so that what it overwrites or deletes does not linger in free pages
// of the file; done puts the pooled connection back as it was.
func secureDeleteConn(ctx context.Context, db *bun.DB) (conn bun.Conn, done func(), err error) {
	if conn, err = db.Conn(ctx); err != nil {
		return conn, nil, Classify(err)
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA secure_delete = ON"); err != nil {
		conn.Close()
		return conn, nil, Classify(err)
	}
	return conn, func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA secure_delete = OFF")
		conn.Close()
	}, nil
}
