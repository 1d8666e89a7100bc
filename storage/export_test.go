package storage

// MigrationLockKey is the SQL expression of the migration advisory lock.
const MigrationLockKey = migrationLockKey

// Resolve is resolve: the dialect and driver target of a config.
var Resolve = resolve

// RegisteredMigrations counts the migrations every part registered, so
// that tests do not hard-code it.
func RegisteredMigrations() int { return len(migrations.Sorted()) }
