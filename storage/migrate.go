package storage

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// Our own migration table names, so rolegate never collides with a host
// app that also uses bun/migrate.
const (
	migrationsTable     = "rolegate_migrations"
	migrationLocksTable = "rolegate_migration_locks"
)

var migrations = migrate.NewMigrations()

// AddMigration registers a Go migration. Names sort in the order they run
// ("20261121000100"); each part of rolegate registers its own from init.
func AddMigration(name, comment string, up, down func(ctx context.Context, db *bun.DB) error) {
	migrations.Add(migrate.Migration{
		Name:    name,
		Comment: comment,
		Up:      func(ctx context.Context, m *migrate.Migrator, _ *migrate.Migration) error { return up(ctx, m.DB()) },
		Down:    func(ctx context.Context, m *migrate.Migrator, _ *migrate.Migration) error { return down(ctx, m.DB()) },
	})
}

// Migrate brings the schema up to date. Several replicas may call it at
// once: one of them works while the others wait (polling with jitter)
// until it is done or ctx ends.
//
// On PostgreSQL the lock is a session advisory lock, not the migrator's
// lock row: PostgreSQL releases it when the session ends, so a replica
// that crashes while migrating does not leave the others locked out. On
// SQLite (one machine, usually one process) the migrator's lock row is
// kept.
//
// It reports how many migrations this call applied (0 when the schema was
// up to date), for the startup line.
func Migrate(ctx context.Context, db *bun.DB) (applied int, err error) {
	m := migrate.NewMigrator(db, migrations,
		migrate.WithTableName(migrationsTable),
		migrate.WithLocksTableName(migrationLocksTable),
		migrate.WithMarkAppliedOnSuccess(true),
	)
	err = retryLocked(ctx, func() (bool, error) {
		var err error
		if IsPostgres(db) {
			applied, err = migratePostgres(ctx, db, m)
		} else {
			applied, err = migrateOnce(ctx, m)
		}
		if errors.Is(err, errLocked) {
			return false, nil
		}
		return err == nil, err
	})
	switch {
	case err == nil:
		return applied, nil
	case errors.Is(err, errLocked) && IsPostgres(db):
		return 0, errors.New("storage: migrations stayed locked for a minute: another replica is still migrating this database (a PostgreSQL advisory lock, released when that replica's session ends)")
	case errors.Is(err, errLocked):
		return 0, fmt.Errorf("storage: migrations stayed locked for a minute; if no other process is migrating, a crashed one left the lock: delete the row in %s", migrationLocksTable)
	default:
		return 0, fmt.Errorf("storage: migrate: %w", Classify(err))
	}
}

var errLocked = errors.New("migrations locked")

// lockWait is how long a start waits for the migration lock that another
// replica holds.
const lockWait = 60 * time.Second

// retryLocked calls try until it takes the lock (true), fails, or lockWait
// has passed (errLocked), pausing 50 to 150 ms between tries so that
// replicas starting together do not retry in step.
func retryLocked(ctx context.Context, try func() (bool, error)) error {
	deadline := time.Now().Add(lockWait)
	for {
		taken, err := try()
		if err != nil || taken {
			return err
		}
		if time.Now().After(deadline) {
			return errLocked
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(50+rand.IntN(100)) * time.Millisecond):
		}
	}
}

func migrateOnce(ctx context.Context, m *migrate.Migrator) (int, error) {
	// Init creates the bookkeeping tables; two replicas racing on CREATE
	// TABLE IF NOT EXISTS can still collide in PostgreSQL's catalog, which
	// is the same situation as a held lock: wait and try again.
	if err := m.Init(ctx); err != nil {
		if isUniqueViolation(err) || isDuplicateObject(err) {
			return 0, errLocked
		}
		return 0, err
	}
	if err := m.Lock(ctx); err != nil {
		// Only a held lock (its row exists) is worth waiting for.
		if isUniqueViolation(err) {
			return 0, errLocked
		}
		return 0, err
	}
	defer func() {
		// Unlock even when ctx was cancelled, or the next start would wait.
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = m.Unlock(uctx)
	}()
	return applied(m.Migrate(ctx))
}

func applied(g *migrate.MigrationGroup, err error) (int, error) {
	if err != nil || g == nil {
		return 0, err
	}
	return len(g.Migrations), nil
}

// migrationLockKey names the advisory lock: one per schema, so that
// rolegate stores in different schemas of one database do not wait for
// each other. A hash collision with another application's lock only makes
// one wait for the other.
const migrationLockKey = "hashtext(current_schema() || '.rolegate_migrations')"

// migratePostgres migrates while holding the advisory lock on a connection
// of its own; errLocked when another session holds it.
func migratePostgres(ctx context.Context, db *bun.DB, m *migrate.Migrator) (int, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	var locked bool
	if err := conn.NewRaw("SELECT pg_try_advisory_lock("+migrationLockKey+")").Scan(ctx, &locked); err != nil {
		conn.Close()
		return 0, err
	}
	if !locked {
		conn.Close()
		return 0, errLocked
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, err := conn.ExecContext(uctx, "SELECT pg_advisory_unlock("+migrationLockKey+")"); err != nil {
			// The lock may still be held: never hand this session back to
			// the pool; closing it ends the session, which releases it.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
	}()
	if err := m.Init(ctx); err != nil {
		return 0, err
	}
	return applied(m.Migrate(ctx))
}

// withMigrationLock runs fn while holding the migration lock (the one
// Migrate takes), waiting for it up to a minute like Migrate does. On
// SQLite fn gets a connection of its own with secure_delete on, so that
// values it overwrites or deletes do not linger in free space; afterwards
// the file is vacuumed and the WAL checkpointed and truncated, so that no
// old value remains in the database, -wal or -shm files. On PostgreSQL fn
// gets db; clean lists the tables fn rewrote, which are then rebuilt with
// VACUUM (FULL), so that their old row versions leave the relation files.
func withMigrationLock(ctx context.Context, db *bun.DB, clean []string, fn func(ctx context.Context, db bun.IDB) (bool, error)) error {
	if IsPostgres(db) {
		conn, err := db.Conn(ctx)
		if err != nil {
			return Classify(err)
		}
		defer conn.Close()
		err = retryLocked(ctx, func() (bool, error) {
			var locked bool
			err := conn.NewRaw("SELECT pg_try_advisory_lock("+migrationLockKey+")").Scan(ctx, &locked)
			return locked, err
		})
		if errors.Is(err, errLocked) {
			return errors.New("storage: the migration lock stayed held for a minute: another replica is still migrating or re-encrypting this database")
		}
		if err != nil {
			return Classify(err)
		}
		defer func() {
			uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if _, err := conn.ExecContext(uctx, "SELECT pg_advisory_unlock("+migrationLockKey+")"); err != nil {
				_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			}
		}()
		return cleanRewrite(ctx, db, clean, fn)
	}
	m := migrate.NewMigrator(db, migrations,
		migrate.WithTableName(migrationsTable),
		migrate.WithLocksTableName(migrationLocksTable))
	err := retryLocked(ctx, func() (bool, error) {
		err := m.Lock(ctx)
		if isUniqueViolation(err) {
			return false, nil // held: its row exists
		}
		return err == nil, err
	})
	if errors.Is(err, errLocked) {
		return fmt.Errorf("storage: the migration lock stayed held for a minute; if no other process is migrating or re-encrypting, a crashed one left the lock: delete the row in %s", migrationLocksTable)
	}
	if err != nil {
		return fmt.Errorf("storage: migration lock: %w", Classify(err))
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = m.Unlock(uctx)
	}()
	return cleanRewrite(ctx, db, clean, fn)
}

// WithCleanRewrite runs fn, which rewrites values, so that the old values
// do not linger in the database files. With migrationLock it holds the
// migration lock meanwhile (see withMigrationLock); without, the caller
// keeps others out of fn by other means, e.g. a lease. On SQLite fn gets a
// connection of its own with secure_delete on, and afterwards the file is
// vacuumed and the WAL checkpointed and truncated. On PostgreSQL fn gets
// db, and the tables in clean are rebuilt with VACUUM (FULL) when fn
// reports a change (each rebuild locks its table while it runs).
func WithCleanRewrite(ctx context.Context, db *bun.DB, migrationLock bool, clean []string, fn func(ctx context.Context, db bun.IDB) (bool, error)) error {
	if migrationLock {
		return withMigrationLock(ctx, db, clean, fn)
	}
	return cleanRewrite(ctx, db, clean, fn)
}

func cleanRewrite(ctx context.Context, db *bun.DB, clean []string, fn func(ctx context.Context, db bun.IDB) (bool, error)) error {
	if IsPostgres(db) {
		changed, err := fn(ctx, db)
		if err != nil || !changed {
			return err
		}
		for _, t := range clean {
			if _, err := db.ExecContext(ctx, "VACUUM (FULL) "+t); err != nil {
				return Classify(err)
			}
		}
		return nil
	}
	conn, done, err := secureDeleteConn(ctx, db)
	if err != nil {
		return err
	}
	defer done()
	changed, err := fn(ctx, conn)
	if err != nil || !changed {
		return err
	}
	for _, q := range []string{"VACUUM", "PRAGMA wal_checkpoint(TRUNCATE)"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return Classify(err)
		}
	}
	return nil
}
