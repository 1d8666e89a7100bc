package storage

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/uptrace/bun"
)

// PutMembership makes the user a member of the role (globally when scope
// is "", else in that scope only) with exactly the bounds b: a membership
// that exists takes b in place of its own (zero bounds: none). Created
// when it is new, Changed when it is new or its bounds changed;
// ErrRoleNotFound when the role does not exist.
func PutMembership(ctx context.Context, db bun.IDB, s Scope, scope, user, role string, b TimeBounds) (Put, error) {
	forms := bun.List(s.userForms(user))
	if scope == "" {
		return putRow(ctx, db, s, role, b, rowSQL{
			table: "rolegate_memberships", conflict: "ns, user_name, role",
			cols: "ns, user_name, role", values: []any{s.NS, s.storedUser(user), role},
			where: "ns = ? AND role = ? AND user_name IN (?)", whereArgs: []any{s.NS, role, forms},
		})
	}
	return putRow(ctx, db, s, role, b, rowSQL{
		table: "rolegate_scoped_memberships", conflict: "ns, user_name, scope, role",
		cols: "ns, scope, user_name, role", values: []any{s.NS, scope, s.storedUser(user), role},
		where: "ns = ? AND scope = ? AND role = ? AND user_name IN (?)", whereArgs: []any{s.NS, scope, role, forms},
	})
}

// PutPermission grants the permission to the role with exactly the bounds
// b, as PutMembership does a membership.
func PutPermission(ctx context.Context, db bun.IDB, s Scope, role, name string, b TimeBounds) (Put, error) {
	return putRow(ctx, db, s, role, b, rowSQL{
		table: "rolegate_permissions", conflict: "ns, role, name",
		cols: "ns, role, name", values: []any{s.NS, role, s.storedPerm(name)},
		where: "ns = ? AND role = ? AND name IN (?)", whereArgs: []any{s.NS, role, bun.List(s.permForms(name))},
	})
}

// rowSQL names one membership or grant row: its table and primary key,
// the key columns and values of an insert, and the condition that finds
// the row in any stored form of its name.
type rowSQL struct {
	table, conflict, cols string
	values                []any
	where                 string
	whereArgs             []any
}

// putRow writes a row with bounds b. On PostgreSQL one statement inserts
// it, or sets the bounds of the row that exists when they differ, and
// tells which it did (a new row version has no xmax); on SQLite, whose
// writes are local calls, the row's bounds are read first.
func putRow(ctx context.Context, db bun.IDB, s Scope, role string, b TimeBounds, r rowSQL) (Put, error) {
	bargs := b.args()
	insert := "INSERT INTO " + r.table + " (" + r.cols + ", starts_at, expires_at) SELECT " +
		strings.Repeat("?, ", len(r.values)+1) + "? WHERE " + roleGuard +
		" ON CONFLICT (" + r.conflict + ") DO UPDATE SET starts_at = excluded.starts_at, expires_at = excluded.expires_at" +
		" WHERE " + r.table + ".starts_at IS DISTINCT FROM excluded.starts_at OR " + r.table + ".expires_at IS DISTINCT FROM excluded.expires_at"
	args := append(append(append([]any{}, r.values...), bargs...), s.NS, role)
	if IsPostgres(db) {
		var n, inserted int
		var found bool
		err := db.NewRaw("WITH w AS ("+insert+" RETURNING xmax = 0 AS inserted) SELECT (SELECT count(*) FROM w), "+
			"(SELECT count(*) FROM w WHERE inserted), "+roleGuard, append(args, s.NS, role)...).Scan(ctx, &n, &inserted, &found)
		switch {
		case err != nil:
			_, err = affected(nil, err)
			return Put{}, err
		case !found:
			return Put{}, ErrRoleNotFound
		}
		return Put{Created: inserted > 0, Changed: n > 0}, nil
	}
	var old boundRow
	err := db.NewRaw("SELECT starts_at, expires_at FROM "+r.table+" WHERE "+r.where, r.whereArgs...).Scan(ctx, &old)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return Put{}, Classify(err)
	case old.bounds().Equal(b.Normalized()):
		return Put{}, nil
	default:
		changed, err := affected(db.NewRaw("UPDATE "+r.table+" SET starts_at = ?, expires_at = ? WHERE "+r.where,
			append(bargs, r.whereArgs...)...).Exec(ctx))
		return Put{Changed: changed}, err
	}
	created, err := affected(db.NewRaw(insert, args...).Exec(ctx))
	if err != nil || created {
		return Put{Created: created, Changed: created}, err
	}
	return Put{}, requireRole(ctx, db, s, role)
}
