package storage

// MigrationLockKey is the SQL expression of the migration advisory lock.
const MigrationLockKey = migrationLockKey

// Resolve is resolve: the dialect and driver target of a config.
var Resolve = resolve

// MigrationCount is the number of migrations registered.
func MigrationCount() int { return len(migrations.Sorted()) }
