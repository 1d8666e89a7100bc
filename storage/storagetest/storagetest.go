// Package storagetest runs a test against every database rolegate
// supports: SQLite in a temporary folder, and PostgreSQL from the URL in
// AUTH_TEST_POSTGRESQL_URL, each test in a schema of its own.
package storagetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"
	_ "modernc.org/sqlite" // the SQLite targets: the embedded driver

	"github.com/rolegate/rolegate/storage"
)

// PostgreSQLURLEnv names the variable holding the test PostgreSQL URL.
const PostgreSQLURLEnv = "AUTH_TEST_POSTGRESQL_URL"

// Target is one database a test runs against.
type Target struct {
	// Name is "sqlite" or "postgresql", the subtest name.
	Name string
	// Config opens the database (the same one each time it is opened, so
	// two Open calls share data as two replicas would).
	Config storage.Config
}

// ForEachDB runs fn as a subtest per database, with the database opened
// and migrated; it is closed when the subtest ends.
func ForEachDB(t *testing.T, fn func(t *testing.T, db *bun.DB)) {
	t.Helper()
	ForEachTarget(t, func(t *testing.T, target Target) {
		fn(t, OpenTarget(t, target))
	})
}

// ForEachTarget runs fn as a subtest per database with a fresh, empty
// target it may open as often as it likes.
func ForEachTarget(t *testing.T, fn func(t *testing.T, target Target)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		fn(t, SQLite(t))
	})
	t.Run("postgresql", func(t *testing.T) {
		fn(t, PostgreSQL(t))
	})
}

// SQLite gives a fresh SQLite target in t.TempDir().
func SQLite(t testing.TB) Target {
	return Target{Name: "sqlite", Config: storage.Config{
		Type: storage.TypeSQLite, SQLitePath: filepath.Join(t.TempDir(), "auth.sqlite3"),
	}}
}

// PostgreSQL gives a fresh schema in the test PostgreSQL database, dropped
// at cleanup. Without AUTH_TEST_POSTGRESQL_URL the test is skipped, unless
// CI=true, where it fails: CI must run every storage test on both.
func PostgreSQL(t testing.TB) Target {
	t.Helper()
	url := os.Getenv(PostgreSQLURLEnv)
	if url == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set; PostgreSQL tests are mandatory under CI", PostgreSQLURLEnv)
		}
		t.Skipf("%s not set; skipping PostgreSQL", PostgreSQLURLEnv)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	admin, err := storage.Open(context.Background(), storage.Config{Type: storage.TypePostgreSQL, PostgreSQLURL: url})
	if err != nil {
		t.Fatalf("PostgreSQL at %s unreachable: %v", PostgreSQLURLEnv, err)
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _ = admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	})
	// pgdriver turns unknown URL parameters into session settings, so the
	// schema travels in the URL and works for child processes too.
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return Target{Name: "postgresql", Config: storage.Config{
		Type: storage.TypePostgreSQL, PostgreSQLURL: url + sep + "search_path=" + schema,
	}}
}

// OpenTarget opens and migrates the target, closing it at cleanup.
func OpenTarget(t testing.TB, target Target) *bun.DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	db, err := storage.Open(ctx, target.Config)
	if err != nil {
		t.Fatalf("open %s: %v", target.Name, err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := storage.Migrate(ctx, db); err != nil {
		t.Fatalf("migrate %s: %v", target.Name, err)
	}
	return db
}
