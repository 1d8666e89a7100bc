package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// foreignKeysConns is how many connections CheckForeignKeys holds at once.
const foreignKeysConns = 4

// CheckForeignKeys confirms that foreign keys are on for a SQLite handle
// rolegate did not open (authz.OpenDB): on several connections held at
// once (as many as the pool allows, at most four), so that a PRAGMA the
// host ran once, which holds on one connection only, is told from a DSN
// setting or a connection hook, which hold on every connection the pool
// opens. The error says how the handle's driver spells the setting.
// PostgreSQL always enforces foreign keys.
func CheckForeignKeys(ctx context.Context, db *bun.DB) error {
	if IsPostgres(db) {
		return nil
	}
	n := foreignKeysConns
	if max := db.Stats().MaxOpenConnections; max > 0 && max < n {
		n = max
	}
	conns := make([]*sql.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			_ = c.Close()
		}
	}()
	for len(conns) < n {
		// A pool the host keeps busy may not give n at once: the ones it
		// gives within a second are checked.
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		c, err := db.DB.Conn(cctx)
		cancel()
		if err != nil {
			if len(conns) > 0 && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				break
			}
			return fmt.Errorf("storage: checking foreign keys: %w", Classify(err))
		}
		conns = append(conns, c)
	}
	for i, c := range conns {
		var on int
		if err := c.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&on); err != nil {
			return fmt.Errorf("storage: checking foreign keys: %w", Classify(err))
		}
		if on != 1 {
			return fmt.Errorf("storage: foreign keys are off on connection %d of %d of this SQLite handle; %s (rolegate's tables rely on them)",
				i+1, len(conns), foreignKeysHint(driverPackage(db.DB)))
		}
	}
	return nil
}

// foreignKeysHint says how to turn foreign keys on for every connection
// of a pool with the driver of package pkg.
func foreignKeysHint(pkg string) string {
	switch pkg {
	case "github.com/mattn/go-sqlite3":
		return "open it with _foreign_keys=1 in the DSN (github.com/mattn/go-sqlite3; gorm's SQLite driver passes the DSN through)"
	case "modernc.org/sqlite":
		return "open it with _pragma=foreign_keys(1) in the DSN (modernc.org/sqlite)"
	default:
		return "turn them on for every connection in the DSN or a connection hook of its driver (" + pkg + "), not with one PRAGMA"
	}
}
