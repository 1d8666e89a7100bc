package storage

import (
	"context"
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
// once: the migrator's lock lets one of them work while the others wait
// (polling with jitter) until it is done or ctx ends.
func Migrate(ctx context.Context, db *bun.DB) error {
	m := migrate.NewMigrator(db, migrations,
		migrate.WithTableName(migrationsTable),
		migrate.WithLocksTableName(migrationLocksTable),
		migrate.WithMarkAppliedOnSuccess(true),
	)
	deadline := time.Now().Add(60 * time.Second)
	for attempt := 0; ; attempt++ {
		err := migrateOnce(ctx, m)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errLocked) || time.Now().After(deadline) {
			if errors.Is(err, errLocked) {
				return fmt.Errorf("storage: migrations stayed locked for a minute; if no other replica is migrating, a crashed one left the lock: delete the row in %s", migrationLocksTable)
			}
			return fmt.Errorf("storage: migrate: %w", Classify(err))
		}
		wait := time.Duration(50+rand.IntN(100)) * time.Millisecond
		select {
		case <-ctx.Done():
			return fmt.Errorf("storage: migrate: %w", Classify(ctx.Err()))
		case <-time.After(wait):
		}
	}
}

var errLocked = errors.New("migrations locked")

func migrateOnce(ctx context.Context, m *migrate.Migrator) error {
	// Init creates the bookkeeping tables; two replicas racing on CREATE
	// TABLE IF NOT EXISTS can still collide in PostgreSQL's catalog, which
	// is the same situation as a held lock: wait and try again.
	if err := m.Init(ctx); err != nil {
		if isUniqueViolation(err) || isDuplicateObject(err) {
			return errLocked
		}
		return err
	}
	if err := m.Lock(ctx); err != nil {
		// Only a held lock (its row exists) is worth waiting for.
		if isUniqueViolation(err) {
			return errLocked
		}
		return err
	}
	defer func() {
		// Unlock even when ctx was cancelled, or the next start would wait.
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = m.Unlock(uctx)
	}()
	_, err := m.Migrate(ctx)
	return err
}
