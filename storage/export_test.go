package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// MigrationLockKey is the SQL expression of the migration advisory lock.
const MigrationLockKey = migrationLockKey

// BumpRevision is bumpRevision: a revision with no change log entry.
func BumpRevision(ctx context.Context, db bun.IDB, ns string) (int64, error) {
	rev, _, err := bumpRevision(ctx, db, ns, Change{})
	return rev, err
}

// Resolve is resolve: the dialect and driver target of a config.
var Resolve = resolve

// SetBytewise overrides what byteOrder found out about db's collation.
func SetBytewise(db bun.IDB, ok bool) { bytewiseDBs.Store(db.Dialect(), ok) }

// SortsAsBytes is sortsAsBytes; BytewiseProbe its probe.
var (
	SortsAsBytes  = sortsAsBytes
	BytewiseProbe = bytewiseProbe
)

// MigrationCount is the number of registered migrations.
func MigrationCount() int { return len(migrations.Sorted()) }

// MigrateUpTo applies the migrations named up to last only, so that a test
// can build a store as an older release left it and then upgrade it.
func MigrateUpTo(ctx context.Context, db *bun.DB, last string) error {
	sub := migrate.NewMigrations()
	for _, m := range migrations.Sorted() {
		if m.Name <= last {
			sub.Add(m)
		}
	}
	m := migrate.NewMigrator(db, sub, migrate.WithTableName(migrationsTable),
		migrate.WithLocksTableName(migrationLocksTable), migrate.WithMarkAppliedOnSuccess(true))
	if err := m.Init(ctx); err != nil {
		return err
	}
	_, err := m.Migrate(ctx)
	return err
}

// FairCuts is fairCuts over bucket sizes (all counted as changes).
func FairCuts(sizes []int64, keep int64) []int64 {
	buckets := make([]*auditBucket, len(sizes))
	for i, n := range sizes {
		buckets[i] = &auditBucket{changes: n}
	}
	return fairCuts(buckets, keep)
}

// PruneAuditBeyond is pruneAuditBeyond.
var PruneAuditBeyond = pruneAuditBeyond
var EachRolePermission = eachRolePermission
var EachRoleEffectivePermission = eachRoleEffectivePermission
var EachRoleMember = eachRoleMember
var EachRoleParent = eachRoleParent
var EachRoleChild = eachRoleChild
var EachUserRole = eachUserRole
var EachUserPermission = eachUserPermission
var EachWhichRoleCan = eachWhichRoleCan
var EachWhichUserCan = eachWhichUserCan
var EachUserPermissionIn = eachUserPermissionIn
var EachRoleMemberIn = eachRoleMemberIn
var EachUserRoleIn = eachUserRoleIn
var EachWhichUserCanIn = eachWhichUserCanIn
var RolePermissions = rolePermissions
var RoleEffectivePermissions = roleEffectivePermissions
var RoleMembers = roleMembers
var RoleParents = roleParents
var UserRoles = userRoles
var UserPermissions = userPermissions
var WhichRolesCan = whichRolesCan
var WhichUsersCan = whichUsersCan
var RolesGranting = rolesGranting
var RoleMembersIn = roleMembersIn
var UserRolesIn = userRolesIn
var WhichUsersCanIn = whichUsersCanIn
var UserMemberships = userMemberships

// PrefixEnd is prefixEnd.
var PrefixEnd = prefixEnd
