package authz

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestOpenDB: a host hands rolegate its own *bun.DB. rolegate migrates its
// prefixed tables beside the host's, works, and Close leaves the handle
// open for the host; on both stores.
func TestOpenDB(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		db, err := storage.Open(ctx, target.Config) // stands in for the host's own handle
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.ExecContext(ctx, "CREATE TABLE host_notes (id INTEGER PRIMARY KEY, body TEXT)"); err != nil {
			t.Fatal(err)
		}
		var logs strings.Builder
		cfg := Config{ClientKey: newKey(), Logger: slog.New(slog.NewTextHandler(&logs, nil))}
		cfg.SQLitePath = "/nonexistent/ignored.db" // OpenDB uses the handle, not the settings
		az, err := OpenDB(ctx, db, cfg)
		if err != nil {
			t.Fatal(err)
		}
		host := mustHost(t, az)
		if _, err := host.AddRole(ctx, "editor", ""); err != nil {
			t.Fatal(err)
		}
		if err := az.Close(); err != nil {
			t.Fatal(err)
		}
		// The handle is still the host's, with both its table and ours.
		var n int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM host_notes").Scan(&n); err != nil {
			t.Fatalf("host's table after Close: %v", err)
		}
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM rolegate_roles").Scan(&n); err != nil || n != 1 {
			t.Fatalf("rolegate_roles: %d, %v", n, err)
		}
		if !strings.Contains(logs.String(), "rolegate opened") {
			t.Errorf("no startup line:\n%s", logs.String())
		}
	})
}

// TestStartupLine: Open says in one line which store it opened, how many
// migrations it applied (all on a new store, none on the next start) and
// the listener's state, on both stores.
func TestStartupLine(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		line := func() string {
			var logs strings.Builder
			openTarget(t, target, func(cfg *Config) { cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil)) })
			for _, l := range strings.Split(logs.String(), "\n") {
				if strings.Contains(l, "rolegate opened") {
					return l
				}
			}
			t.Fatalf("no startup line in:\n%s", logs.String())
			return ""
		}
		first, second := line(), line()
		if target.Name == "sqlite" {
			if !strings.Contains(first, `store="sqlite `+target.Config.SQLitePath) || !strings.Contains(first, "listener=\"none") {
				t.Errorf("sqlite line: %s", first)
			}
		} else {
			if !strings.Contains(first, `store="postgresql `) || !strings.Contains(first, "listener=live") ||
				strings.Contains(first, "password") {
				t.Errorf("postgresql line: %s", first)
			}
		}
		if strings.Contains(first, "migrations_applied=0") || !strings.Contains(second, "migrations_applied=0") {
			t.Errorf("migrations: first start %q, second %q", first, second)
		}
	})
}

// TestOpenDBRefusesSQLiteWithoutForeignKeys: rolegate's cascades need
// foreign keys; a handle without them is refused with a clear error, not
// left to keep orphaned grants.
func TestOpenDBRefusesSQLiteWithoutForeignKeys(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, storagetest.SQLite(t).Config)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenDB(ctx, db, Config{}); err == nil || !strings.Contains(err.Error(), "foreign_keys(1)") {
		t.Fatalf("OpenDB = %v", err)
	}
}
