package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

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
// change feed: one del_membership entry each, before the del_role (see
// DeleteRoleFeed).
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
	deleted, removed, _, err = deleteRole(ctx, db, s, role, false)
	return deleted, removed, err
}

// DeleteRoleFeed is DeleteRoleCounted that also records, for the change
// feed, one del_membership entry per membership the deletion removes,
// ahead of the revision the write makes (see RemovedMembers): the
// del_role entry that carries members (FeedEntry.Removed) takes them in
// just before itself. A write that deletes a role this way must record
// that entry in the same transaction.
func DeleteRoleFeed(ctx context.Context, db bun.IDB, s Scope, role string) (deleted bool, removed RoleRemoved, members RemovedMembers, err error) {
	return deleteRole(ctx, db, s, role, true)
}

func deleteRole(ctx context.Context, db bun.IDB, s Scope, role string, feed bool) (deleted bool, removed RoleRemoved, members RemovedMembers, err error) {
	// The links, counted before forgetRoleAncestors removes them. On
	// PostgreSQL the role's row is locked first, so that no membership is
	// added to it (whose foreign key check waits for the lock) between the
	// deletion of its memberships and of the role, which would cascade to
	// one that nothing names; a role that is not there has nothing to
	// delete (its foreign keys hold).
	counts := `SELECT (SELECT COUNT(*) FROM rolegate_role_parents WHERE ns = ? AND role = ?) AS parents,
		(SELECT COUNT(*) FROM rolegate_role_parents WHERE ns = ? AND parent = ?) AS children`
	args := []any{s.NS, role, s.NS, role}
	if IsPostgres(db) {
		counts += " FROM rolegate_roles WHERE ns = ? AND name = ? FOR UPDATE"
		args = append(args, s.NS, role)
	}
	err = db.NewRaw(counts, args...).Scan(ctx, &removed.Parents, &removed.Children)
	if errors.Is(err, sql.ErrNoRows) {
		return false, RoleRemoved{}, RemovedMembers{}, nil
	}
	if err != nil {
		return false, RoleRemoved{}, RemovedMembers{}, Classify(err)
	}
	if err := forgetRoleAncestors(ctx, db, s, role); err != nil {
		return false, RoleRemoved{}, RemovedMembers{}, err
	}
	// The foreign keys cascade too; deleting explicitly keeps the result
	// (and the counts) the same where a host's SQLite connection has
	// foreign keys off.
	res, err := db.NewRaw("DELETE FROM rolegate_permissions WHERE ns = ? AND role = ?", s.NS, role).Exec(ctx)
	if err == nil {
		removed.Grants, err = res.RowsAffected()
	}
	if err != nil {
		return false, RoleRemoved{}, RemovedMembers{}, Classify(err)
	}
	if feed {
		removed.Memberships, removed.ScopedMemberships, members, err = deleteMembersNamed(ctx, db, s, role)
	} else {
		removed.Memberships, removed.ScopedMemberships, err = deleteMembers(ctx, db, s, role)
	}
	if err != nil {
		return false, RoleRemoved{}, RemovedMembers{}, err
	}
	res, err = db.NewRaw("DELETE FROM rolegate_roles WHERE ns = ? AND name = ?", s.NS, role).Exec(ctx)
	deleted, err = affected(res, err)
	if err != nil {
		return false, RoleRemoved{}, RemovedMembers{}, err
	}
	if !deleted {
		// Memberships of a role that was not there (a host's SQLite
		// connection with foreign keys off): the write changes nothing
		// and records no feed, so their entries go too.
		if members.N > 0 {
			if _, err := db.NewRaw("DELETE FROM rolegate_change_ops WHERE ns = ? AND revision = ?", s.NS, members.Pending).Exec(ctx); err != nil {
				return false, RoleRemoved{}, RemovedMembers{}, Classify(err)
			}
		}
		return false, RoleRemoved{}, RemovedMembers{}, nil
	}
	return true, removed, members, nil
}

// deleteMembers deletes the role's memberships, global and scoped, and
// counts them.
func deleteMembers(ctx context.Context, db bun.IDB, s Scope, role string) (global, scoped int64, err error) {
	for _, c := range []struct {
		q  string
		to *int64
	}{
		{"DELETE FROM rolegate_memberships WHERE ns = ? AND role = ?", &global},
		{"DELETE FROM rolegate_scoped_memberships WHERE ns = ? AND role = ?", &scoped},
	} {
		res, err := db.NewRaw(c.q, s.NS, role).Exec(ctx)
		if err == nil {
			*c.to, err = res.RowsAffected()
		}
		if err != nil {
			return 0, 0, Classify(err)
		}
	}
	return global, scoped, nil
}

// RemovedMembers are the del_membership entries of a role's deletion
// (DeleteRoleFeed), recorded before the write has made its revision: N
// of them, under the placeholder revision Pending (negative, of this
// transaction's own; no reader reads one), numbered 0 to N-1, global
// memberships first, then scoped ones by scope. The del_role entry that
// carries them (FeedEntry.Removed) moves them into its revision just
// before itself, with its actor, reason and time (see placeFeed). They
// never pass through Go: a role with a million members costs the
// statements, not the memory.
type RemovedMembers struct {
	Pending int64
	N       int64
}

// deleteMembersNamed is deleteMembers that also records a del_membership
// feed entry for each membership it deletes (see RemovedMembers). The
// user names are copied as stored, encrypted as the feed stores them
// (one codec for every user column); a key rotation under way re-encrypts
// the copies as it does the rest of the feed, which it passes after the
// memberships.
//
// On PostgreSQL each deletion and its entries are one statement (the
// DELETE's RETURNING rows feed the INSERT), so the entries name exactly
// the rows deleted, whatever other transactions do meanwhile; SQLite has
// one writer at a time, and the INSERT ... SELECT and the DELETE after it
// see the same rows.
func deleteMembersNamed(ctx context.Context, db bun.IDB, s Scope, role string) (global, scoped int64, m RemovedMembers, err error) {
	m.Pending = -1 - rand.Int64N(math.MaxInt64-1)
	at := time.Now().UTC() // replaced by the del_role's when placed
	for _, t := range []struct {
		table, cols, order string
		to                 *int64
	}{
		{"rolegate_memberships", "user_name", "user_name", &global},
		{"rolegate_scoped_memberships", "user_name, scope", "scope, user_name", &scoped},
	} {
		insert := `INSERT INTO rolegate_change_ops (ns, revision, seq, op, role, ` + t.cols + `, at)
			SELECT ?, ?, ROW_NUMBER() OVER (ORDER BY ` + t.order + `) - 1 + ?, 'del_membership', ?, ` + t.cols + `, CAST(? AS TIMESTAMP) `
		var q string
		var args []any
		if IsPostgres(db) {
			q = `WITH d AS (DELETE FROM ` + t.table + ` WHERE ns = ? AND role = ? RETURNING ` + t.cols + `) ` + insert + `FROM d`
			args = []any{s.NS, role, s.NS, m.Pending, m.N, role, at}
		} else {
			q = insert + `FROM ` + t.table + ` WHERE ns = ? AND role = ?`
			args = []any{s.NS, m.Pending, m.N, role, at, s.NS, role}
		}
		res, err := db.NewRaw(q, args...).Exec(ctx)
		if err == nil {
			*t.to, err = res.RowsAffected()
		}
		if err != nil {
			return 0, 0, RemovedMembers{}, Classify(err)
		}
		m.N += *t.to
		if !IsPostgres(db) {
			var n int64
			res, err := db.NewRaw("DELETE FROM "+t.table+" WHERE ns = ? AND role = ?", s.NS, role).Exec(ctx)
			if err == nil {
				n, err = res.RowsAffected()
			}
			if err != nil {
				return 0, 0, RemovedMembers{}, Classify(err)
			}
			if n != *t.to {
				return 0, 0, RemovedMembers{}, fmt.Errorf("storage: deleting role: %d memberships named for the change feed, %d deleted", *t.to, n)
			}
		}
	}
	return global, scoped, m, nil
}
