package storage

import "github.com/uptrace/bun"

// MigrationLockKey is the SQL expression of the migration advisory lock.
const MigrationLockKey = migrationLockKey

// Resolve is resolve: the dialect and driver target of a config.
var Resolve = resolve

// SetBytewise overrides what byteOrder found out about db's collation.
func SetBytewise(db bun.IDB, ok bool) { bytewiseDBs.Store(db.Dialect(), ok) }

// SortsAsBytes is sortsAsBytes; BytewiseProbe its probe.
var (
	SortsAsBytes  = sortsAsBytes
	BytewiseProbe = bytewiseProbe
)

// RegisteredMigrations counts the migrations every part registered, so
// that tests do not hard-code it.
func RegisteredMigrations() int { return len(migrations.Sorted()) }
