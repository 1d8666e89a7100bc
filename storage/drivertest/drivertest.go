// Package drivertest runs rolegate on a host's own SQLite driver: each
// driver's tests live in a package of their own (modernc, mattn), so that
// each test binary links that driver alone, as a host's would. It is a
// module of its own so that the library's go.mod does not list the drivers
// (github.com/mattn/go-sqlite3 needs cgo).
package drivertest

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/sqlitedialect"

	"github.com/rolegate/rolegate/authz"
)

// Driver is a host's SQLite driver as rolegate meets it.
type Driver struct {
	// Name is the name it registers with database/sql.
	Name string
	// ForeignKeys is its DSN spelling of foreign keys on.
	ForeignKeys string
	// BusyTimeout is its DSN spelling of a busy timeout, which a host
	// sharing its file with rolegate's background writes needs (else a
	// write meeting one fails at once with "database is locked").
	BusyTimeout string
}

// Pool is the pool size of the hosts' handles: several connections, so
// that a setting held by one connection only shows.
const Pool = 4

// OpenHostDB opens a new SQLite file the way a host would, with query as
// the DSN's query, on a pool of Pool connections.
func OpenHostDB(t testing.TB, d Driver, query string) *bun.DB {
	t.Helper()
	dsn := "file:" + filepath.Join(t.TempDir(), "host.db")
	if query != "" {
		dsn += "?" + query
	}
	sqldb, err := sql.Open(d.Name, dsn)
	if err != nil {
		t.Fatal(err)
	}
	sqldb.SetMaxOpenConns(Pool)
	db := bun.NewDB(sqldb, sqlitedialect.New())
	t.Cleanup(func() { db.Close() })
	return db
}

// CheckEveryConnection holds n connections of db at once and confirms on
// each that foreign keys hold: PRAGMA foreign_keys is 1, a grant to a role
// that does not exist is refused, and deleting a role deletes its grants
// (the cascade rolegate's schema declares).
func CheckEveryConnection(t testing.TB, db *bun.DB, n int) {
	t.Helper()
	ctx := context.Background()
	conns := make([]*sql.Conn, n)
	for i := range conns {
		c, err := db.DB.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
	}
	for i, c := range conns {
		var on int
		if err := c.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&on); err != nil || on != 1 {
			t.Fatalf("connection %d: foreign_keys = %d, %v", i, on, err)
		}
		ns := fmt.Sprintf("drivertest-%d", i)
		_, err := c.ExecContext(ctx, "INSERT INTO rolegate_permissions (ns, role, name) VALUES (?, 'absent', 'read')", ns)
		if err == nil || !strings.Contains(err.Error(), "FOREIGN KEY constraint failed") {
			t.Fatalf("connection %d: a grant to an absent role: %v, want a foreign key error", i, err)
		}
		for _, q := range []string{
			"INSERT INTO rolegate_roles (ns, name) VALUES (?, 'r')",
			"INSERT INTO rolegate_permissions (ns, role, name) VALUES (?, 'r', 'read')",
			"DELETE FROM rolegate_roles WHERE ns = ? AND name = 'r'",
		} {
			if _, err := c.ExecContext(ctx, q, ns); err != nil {
				t.Fatalf("connection %d: %s: %v", i, q, err)
			}
		}
		var left int
		if err := c.QueryRowContext(ctx, "SELECT count(*) FROM rolegate_permissions WHERE ns = ?", ns).Scan(&left); err != nil || left != 0 {
			t.Fatalf("connection %d: %d grants left after their role was deleted (%v); want the cascade", i, left, err)
		}
	}
}

// RunOpenDB opens rolegate on a host's handle of driver d: with d's
// foreign keys in the DSN it works and foreign keys hold on every
// connection; with a PRAGMA run once instead it is refused, naming d's
// spelling.
func RunOpenDB(t *testing.T, d Driver) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	t.Run("dsn", func(t *testing.T) {
		db := OpenHostDB(t, d, d.ForeignKeys+"&"+d.BusyTimeout)
		key := uuid.NewString()
		az, err := authz.OpenDB(ctx, db, authz.Config{ClientKey: key})
		if err != nil {
			t.Fatal(err)
		}
		defer az.Close()
		c, err := az.Client(key)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddRole(ctx, "editor", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddPermission(ctx, "editor", "edit"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddMembership(ctx, "alice", "editor"); err != nil {
			t.Fatal(err)
		}
		if ok, err := c.UserHasPermission(ctx, "alice", "edit"); err != nil || !ok {
			t.Fatalf("alice edit = %v, %v", ok, err)
		}
		CheckEveryConnection(t, db, Pool)
		if deleted, err := c.DelRole(ctx, "editor"); err != nil || !deleted {
			t.Fatalf("DelRole = %v, %v", deleted, err)
		}
		if ok, err := c.UserHasPermission(ctx, "alice", "edit"); err != nil || ok {
			t.Fatalf("alice edit after the role was deleted = %v, %v", ok, err)
		}
		var left int
		if err := db.NewRaw("SELECT (SELECT count(*) FROM rolegate_permissions) + (SELECT count(*) FROM rolegate_memberships)").Scan(ctx, &left); err != nil || left != 0 {
			t.Fatalf("%d grants and memberships left (%v)", left, err)
		}
	})
	t.Run("pragma-once", func(t *testing.T) {
		db := OpenHostDB(t, d, d.BusyTimeout)
		if _, err := db.ExecContext(ctx, "PRAGMA foreign_keys = ON"); err != nil { // one connection of the pool
			t.Fatal(err)
		}
		_, err := authz.OpenDB(ctx, db, authz.Config{ClientKey: uuid.NewString()})
		if err == nil || !strings.Contains(err.Error(), "foreign keys are off") || !strings.Contains(err.Error(), d.ForeignKeys) {
			t.Fatalf("OpenDB = %v, want a refusal naming %s", err, d.ForeignKeys)
		}
	})
}

// RunOpen opens rolegate's SQLite default (authz.Open) with d the only
// SQLite driver linked: Open picks it, and foreign keys hold on every
// connection of the pool Open made.
func RunOpen(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	key := uuid.NewString()
	az, err := authz.Open(ctx, authz.Config{ClientKey: key, SQLitePath: filepath.Join(t.TempDir(), "rolegate.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer az.Close()
	c, err := az.Client(key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddRole(ctx, "editor", ""); err != nil {
		t.Fatal(err)
	}
	CheckEveryConnection(t, az.DB(), Pool)
}
