package storage

import (
	"context"
	"encoding/json"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261128120000", "audit: detail of what a change removed", auditDetailUp, auditDetailDown)
}

// auditDetailUp adds the detail of a record: for a role's deletion, what
// went with it (RoleRemoved, as JSON). Records written before have none.
func auditDetailUp(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, "ALTER TABLE rolegate_audit ADD COLUMN detail TEXT NOT NULL DEFAULT ''")
	return err
}

func auditDetailDown(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, "ALTER TABLE rolegate_audit DROP COLUMN detail")
	return err
}

// RoleRemoved is what deleting a role removed with it, counted by the
// deletion's own statements: the audit record of the deletion carries it
// (AuditRecord.Detail). The memberships themselves, whose user names may
// be stored encrypted and never reach the audit log, are named by the
// change feed.
type RoleRemoved struct {
	// Grants are the permissions granted to the role directly.
	Grants int64 `json:"grants"`
	// Memberships and ScopedMemberships: global ones, and those in one
	// scope (of every scope).
	Memberships       int64 `json:"memberships"`
	ScopedMemberships int64 `json:"scoped_memberships"`
	// Parents and Children: the inheritance links from the role to the
	// roles it inherited from, and from the roles that inherited from it.
	Parents  int64 `json:"parents"`
	Children int64 `json:"children"`
}

// JSON is r as the audit record's detail.
func (r RoleRemoved) JSON() string {
	b, _ := json.Marshal(r) // fixed fields of integers: cannot fail
	return string(b)
}

// DeleteRoleCounted is DeleteRole that also says what went with the
// role (all zero when there was no role).
func DeleteRoleCounted(ctx context.Context, db bun.IDB, s Scope, role string) (deleted bool, removed RoleRemoved, err error) {
	// The links, counted before forgetRoleAncestors removes them.
	for _, c := range []struct {
		q  string
		to *int64
	}{
		{"SELECT COUNT(*) FROM rolegate_role_parents WHERE ns = ? AND role = ?", &removed.Parents},
		{"SELECT COUNT(*) FROM rolegate_role_parents WHERE ns = ? AND parent = ?", &removed.Children},
	} {
		if err := db.NewRaw(c.q, s.NS, role).Scan(ctx, c.to); err != nil {
			return false, RoleRemoved{}, Classify(err)
		}
	}
	if err := forgetRoleAncestors(ctx, db, s, role); err != nil {
		return false, RoleRemoved{}, err
	}
	// The foreign keys cascade too; deleting explicitly keeps the result
	// (and the counts) the same where a host's SQLite connection has
	// foreign keys off.
	for _, c := range []struct {
		q  string
		to *int64
	}{
		{"DELETE FROM rolegate_permissions WHERE ns = ? AND role = ?", &removed.Grants},
		{"DELETE FROM rolegate_memberships WHERE ns = ? AND role = ?", &removed.Memberships},
		{"DELETE FROM rolegate_scoped_memberships WHERE ns = ? AND role = ?", &removed.ScopedMemberships},
	} {
		res, err := db.NewRaw(c.q, s.NS, role).Exec(ctx)
		if err != nil {
			return false, RoleRemoved{}, Classify(err)
		}
		if *c.to, err = res.RowsAffected(); err != nil {
			return false, RoleRemoved{}, Classify(err)
		}
	}
	res, err := db.NewRaw("DELETE FROM rolegate_roles WHERE ns = ? AND name = ?", s.NS, role).Exec(ctx)
	deleted, err = affected(res, err)
	if err != nil || !deleted {
		return deleted, RoleRemoved{}, err
	}
	return true, removed, nil
}
