package storage

import (
	"context"
	"strings"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261127190000", "byte bounds kept on the revision row", byteBoundUp, byteBoundDown)
}

// byte_bound is, beside row_bound, an upper bound of the bytes of text
// the namespace holds (names and descriptions as stored, encrypted ones in
// their stored form): the exact count when it was last taken (Recount),
// plus the bytes each change since said it added (Change.Bytes). Deletes
// leave it high. NULL is unknown, as for rows: every namespace written
// before the column starts unknown and is counted at its next adding write.
func byteBoundUp(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, "ALTER TABLE rolegate_revisions ADD COLUMN byte_bound BIGINT")
	return err
}

func byteBoundDown(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, "ALTER TABLE rolegate_revisions DROP COLUMN byte_bound")
	return err
}

// byteCount counts the bytes of text of a namespace (argument 1, five
// times): each stored row's names, and roles' descriptions.
func byteCount(db bun.IDB) string {
	l := func(cols ...string) string {
		var b strings.Builder
		b.WriteString("coalesce(sum(")
		for i, c := range cols {
			if i > 0 {
				b.WriteString(" + ")
			}
			if IsPostgres(db) {
				b.WriteString("octet_length(" + c + ")")
			} else {
				b.WriteString("length(CAST(" + c + " AS BLOB))")
			}
		}
		b.WriteString("), 0)")
		return b.String()
	}
	return `(SELECT ` + l("name", "description") + ` FROM rolegate_roles WHERE ns = ?)
	+ (SELECT ` + l("role", "name") + ` FROM rolegate_permissions WHERE ns = ?)
	+ (SELECT ` + l("user_name", "role") + ` FROM rolegate_memberships WHERE ns = ?)
	+ (SELECT ` + l("scope", "user_name", "role") + ` FROM rolegate_scoped_memberships WHERE ns = ?)
	+ (SELECT ` + l("role", "parent") + ` FROM rolegate_role_parents WHERE ns = ?)`
}

// Bounds are what RecordChangeBound and Recount return of a namespace:
// upper bounds of the rows it holds (roles, grants, memberships global and
// scoped, inheritance links) and of the bytes of their text, each -1 when
// not known.
type Bounds struct{ Rows, Bytes int64 }

// Recount counts the rows a namespace holds and the bytes of their text,
// and sets its bounds to them, in one statement. Call it in a write's
// transaction after RecordChange, whose revision bump holds the row that
// orders the namespace's writers (so the count includes every earlier
// writer's rows, on PostgreSQL too) and which the bounds are kept on.
func Recount(ctx context.Context, db bun.IDB, ns string) (Bounds, error) {
	var b Bounds
	err := db.NewRaw("UPDATE rolegate_revisions SET row_bound = "+rowCount+", byte_bound = "+byteCount(db)+
		" WHERE ns = ? RETURNING row_bound, byte_bound",
		ns, ns, ns, ns, ns, ns, ns, ns, ns, ns, ns).Scan(ctx, &b.Rows, &b.Bytes)
	return b, Classify(err)
}

// RecountWithNamespaces is Recount that also counts the namespaces that
// were ever written (each has a revision row), for the transaction of a
// namespace's first write: on PostgreSQL it first takes a transaction
// advisory lock, so that such writes count one after the other and a
// limit holds exactly across replicas (SQLite has one writer at a time
// anyway). Two statements on PostgreSQL (the lock, then the counts), one
// on SQLite.
func RecountWithNamespaces(ctx context.Context, db bun.IDB, ns string) (b Bounds, namespaces int, err error) {
	if err := lockNamespaces(ctx, db); err != nil {
		return b, 0, err
	}
	err = db.NewRaw("UPDATE rolegate_revisions SET row_bound = "+rowCount+", byte_bound = "+byteCount(db)+
		" WHERE ns = ? RETURNING row_bound, byte_bound, (SELECT count(*) FROM rolegate_revisions)",
		ns, ns, ns, ns, ns, ns, ns, ns, ns, ns, ns).Scan(ctx, &b.Rows, &b.Bytes, &namespaces)
	return b, namespaces, Classify(err)
}

// Bytes is what a row of these values takes as stored, for Change.Bytes:
// roles, parents and scopes as they are, users and permissions in their
// stored form (encrypted when names are), descriptions too when they are
// encrypted. The encryption of a name is the same however often it is
// done, so this is exactly what the write stores.
func (s Scope) Bytes(roles []string, users, permissions []string, description string) int64 {
	n := int64(len(s.storedDescription(description)))
	for _, r := range roles {
		n += int64(len(r))
	}
	for _, u := range users {
		n += int64(len(s.storedUser(u)))
	}
	for _, p := range permissions {
		n += int64(len(s.storedPerm(p)))
	}
	return n
}

// HoldsAnything reports whether the namespace holds a row: a role, since
// every other row (grant, membership, link) hangs on one. One probe of the
// roles' key.
func HoldsAnything(ctx context.Context, db bun.IDB, ns string) (bool, error) {
	var n int
	err := db.NewRaw("SELECT count(*) FROM (SELECT 1 FROM rolegate_roles WHERE ns = ? LIMIT 1) r", ns).Scan(ctx, &n)
	return n > 0, Classify(err)
}
