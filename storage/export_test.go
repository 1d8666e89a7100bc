package storage

// MigrationLockKey is the SQL expression of the migration advisory lock.
const MigrationLockKey = migrationLockKey
