package storage_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
	"github.com/rolegate/rolegate/storage/storagetest"
)

func TestRBACQueries(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := storage.Scope{NS: storage.NamespaceOf("k1")}
		must := func(ok bool, err error) bool {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if !must(storage.AddRole(ctx, db, s, "editor", "Edits")) {
			t.Fatal("first AddRole should create")
		}
		if must(storage.AddRole(ctx, db, s, "editor", "other")) {
			t.Fatal("second AddRole should report existing")
		}
		if _, err := storage.AddPermission(ctx, db, s, "ghost", "edit"); !errors.Is(err, storage.ErrRoleNotFound) {
			t.Fatalf("grant to missing role: %v", err)
		}
		must(storage.AddPermission(ctx, db, s, "editor", "edit"))
		must(storage.AddPermission(ctx, db, s, "editor", "read"))
		must(storage.AddMembership(ctx, db, s, "", "sara", "editor"))
		roles, perms, err := storage.UserGrants(ctx, db, s, "", "sara")
		if err != nil || !slices.Equal(roles, []string{"editor"}) || !slices.Equal(perms, []string{"edit", "read"}) {
			t.Fatalf("grants = %v %v %v", roles, perms, err)
		}
		rev1, err := storage.BumpRevision(ctx, db, s.NS)
		if err != nil {
			t.Fatal(err)
		}
		rev2, _ := storage.BumpRevision(ctx, db, s.NS)
		if rev2 != rev1+1 {
			t.Fatalf("revisions %d then %d", rev1, rev2)
		}
		if !must(storage.DeleteRole(ctx, db, s, "editor")) {
			t.Fatal("delete role")
		}
		must(storage.AddRole(ctx, db, s, "editor", ""))
		if roles, perms, _ := storage.UserGrants(ctx, db, s, "", "sara"); len(roles)+len(perms) != 0 {
			t.Fatalf("re-created role brought back %v %v", roles, perms)
		}
		v, err := storage.GetOrInitSetting(ctx, db, "x", func() (string, error) { return "one", nil })
		v2, _ := storage.GetOrInitSetting(ctx, db, "x", func() (string, error) { return "two", nil })
		if err != nil || v != "one" || v2 != "one" {
			t.Fatalf("settings %q %q %v", v, v2, err)
		}
	})
}

// A PostgreSQL URL the driver cannot use is an error, not a panic.
func TestOpenBadPostgreSQLURL(t *testing.T) {
	for _, u := range []string{
		"postgres://x@127.0.0.1:1/db?sslmode=bogus",
		"postgres://x@127.0.0.1:1/db?sslmode=verify-full&sslrootcert=/does/not/exist.pem",
		"mysql://x@127.0.0.1/db",
	} {
		_, err := storage.Open(context.Background(), storage.Config{URL: u})
		if err == nil {
			t.Fatalf("Open(%q) succeeded", u)
		}
	}
}

// Replicas starting at once migrate one at a time and all start.
func TestConcurrentMigrations(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		errs := make(chan error, 5)
		for range 5 {
			go func() {
				db, err := storage.Open(ctx, target.Config)
				if err != nil {
					errs <- err
					return
				}
				defer db.Close()
				_, err = storage.Migrate(ctx, db)
				errs <- err
			}()
		}
		for range 5 {
			if err := <-errs; err != nil {
				t.Fatalf("a replica failed to start: %v", err)
			}
		}
		db := storagetest.OpenTarget(t, target)
		var n int
		if err := db.NewRaw("SELECT count(*) FROM rolegate_migrations").Scan(ctx, &n); err != nil || n != storage.MigrationCount() {
			t.Fatalf("%d migrations recorded (%v), want each of %d once", n, err, storage.MigrationCount())
		}
	})
}

// A replica that crashes while migrating PostgreSQL leaves no lock behind:
// its session ends, PostgreSQL releases the advisory lock, and the next
// replica migrates at once. A lock row left by the migrator's own lock
// table (as an older start might have) does not block it either.
func TestMigrationLockDiesWithItsHolder(t *testing.T) {
	target := storagetest.PostgreSQL(t)
	ctx := context.Background()

	crashed, err := storage.Open(ctx, target.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer crashed.Close()
	conn, err := crashed.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock("+storage.MigrationLockKey+")"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "CREATE TABLE rolegate_migration_locks (id BIGSERIAL PRIMARY KEY, table_name VARCHAR UNIQUE)"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "INSERT INTO rolegate_migration_locks (table_name) VALUES ('rolegate_migrations')"); err != nil {
		t.Fatal(err)
	}

	db, err := storage.Open(ctx, target.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	done := make(chan error, 1)
	go func() { _, err := storage.Migrate(ctx, db); done <- err }()
	select {
	case err := <-done:
		t.Fatalf("Migrate finished (%v) while another session held the lock", err)
	case <-time.After(500 * time.Millisecond):
	}

	// The holder's session dies without unlocking.
	var pid int
	if err := conn.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "SELECT pg_terminate_backend(?)", pid); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Migrate after the holder died: %v", err)
		}
		t.Logf("migrated %v after the holder's session ended", time.Since(start).Round(time.Millisecond))
	case <-time.After(10 * time.Second):
		t.Fatal("Migrate still waiting 10 s after the lock holder's session ended")
	}
	var n int
	if err := db.NewRaw("SELECT count(*) FROM rolegate_migrations").Scan(ctx, &n); err != nil || n != storage.MigrationCount() {
		t.Fatalf("%d migrations recorded (%v), want %d", n, err, storage.MigrationCount())
	}
}

// A SQLite path may hold any character a file name can: '?', '#' and '%'
// are not read as a URI's query, fragment or escape.
func TestSQLitePathWithURICharacters(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "a?b#c%20d")
	path := filepath.Join(dir, "auth?x=1#y.sqlite3")
	s := storage.Scope{NS: storage.NamespaceOf("k")}
	for round := range 2 {
		db, err := storage.Open(ctx, storage.Config{Type: storage.TypeSQLite, SQLitePath: path})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := storage.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		created, err := storage.AddRole(ctx, db, s, "editor", "")
		if err != nil || created != (round == 0) {
			t.Fatalf("round %d: AddRole = %v, %v", round, created, err)
		}
		db.Close()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Contains(names, "auth?x=1#y.sqlite3") {
		t.Fatalf("files in %q: %q; want the database under its own name", dir, names)
	}
}

// AUTH_DATABASE_URL picks the dialect by scheme; a SQLite URL's path is
// percent-decoded and loses its query (rolegate sets its own parameters).
func TestResolveDatabaseURL(t *testing.T) {
	for _, tc := range []struct{ url, kind, target string }{
		{"sqlite:///var/lib/app/auth.db", storage.TypeSQLite, "/var/lib/app/auth.db"},
		{"sqlite://data/auth.db", storage.TypeSQLite, "data/auth.db"},
		{"SQLite3:///tmp/a%20b%3Fc.db?cache=shared", storage.TypeSQLite, "/tmp/a b?c.db"},
		{"file:/tmp/x.db?mode=ro", storage.TypeSQLite, "/tmp/x.db"},
		{"file:///tmp/x.db", storage.TypeSQLite, "/tmp/x.db"},
		{"file:rel.db", storage.TypeSQLite, "rel.db"},
		{"postgres://u@h/db?sslmode=disable", storage.TypePostgreSQL, "postgres://u@h/db?sslmode=disable"},
		{"postgresql://u@h/db", storage.TypePostgreSQL, "postgresql://u@h/db"},
	} {
		kind, target, err := storage.Resolve(storage.Config{URL: tc.url})
		if err != nil || kind != tc.kind || target != tc.target {
			t.Errorf("%s: %s %q %v; want %s %q", tc.url, kind, target, err, tc.kind, tc.target)
		}
	}
	for _, bad := range []string{"sqlite://", "sqlite:///tmp/%zz.db", "mysql://u@h/db", "file:?x=1"} {
		if _, _, err := storage.Resolve(storage.Config{URL: bad}); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// The change log: each recorded change has its revision, says whom it
// touched (encrypted like memberships when names are), and is pruned to
// the latest ChangesKept revisions.
func TestChangeLog(t *testing.T) {
	c, err := cipher.New("change log test passphrase")
	if err != nil {
		t.Fatal(err)
	}
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		for _, s := range []storage.Scope{
			{NS: storage.NamespaceOf("plain")},
			{NS: storage.NamespaceOf("encrypted"), Users: c.ForColumn([]byte("encrypted"), cipher.ColumnUser, 2), Permissions: c.ForColumn([]byte("encrypted"), cipher.ColumnPermission, 2)},
		} {
			var revs []int64
			// The third is this caller's own (writer "me"), the others
			// another's or of a writer that predates the writer column.
			for _, ch := range []storage.Change{{User: "sara"}, {All: true, Writer: "other"}, {All: true, Writer: "me"}, {}, {User: "jack", Writer: "me"}} {
				rev, err := storage.RecordChange(ctx, db, s, ch)
				if err != nil {
					t.Fatal(err)
				}
				revs = append(revs, rev)
			}
			if !slices.Equal(revs, []int64{1, 2, 3, 4, 5}) {
				t.Fatalf("revisions %v, want 1 to 5", revs)
			}
			mine := func(after, upto int64) (n int) { // revisions 3 and 5 are "me"'s
				for _, r := range []int64{3, 5} {
					if r > after && r <= upto {
						n++
					}
				}
				return n
			}
			check := func(self string, after, upto int64, wantUsers []string, wantAll, wantComplete bool) {
				t.Helper()
				ch, err := storage.ChangedUsers(ctx, db, s, self, after, upto)
				slices.Sort(ch.Users)
				if err != nil || !slices.Equal(ch.Users, wantUsers) || ch.All != wantAll || ch.Complete != wantComplete ||
					wantComplete && self == "me" && ch.Others != upto-after-int64(mine(after, upto)) {
					t.Fatalf("ChangedUsers(%q, %d, %d) = %+v, %v; want users %v, all %v, complete %v",
						self, after, upto, ch, err, wantUsers, wantAll, wantComplete)
				}
			}
			check("", 3, 5, []string{"jack"}, false, true)
			check("me", 3, 5, nil, false, true) // jack's change was mine
			check("me", 2, 5, nil, false, true) // so was the third
			check("", 2, 5, nil, true, true)
			check("me", 0, 5, nil, true, true) // the second was another's
			check("other", 0, 1, []string{"sara"}, false, true)
			check("", 3, 4, nil, false, true)
			check("", 4, 6, nil, false, false)
			check("", 5, 5, nil, false, true)

			var stored []string
			if err := db.NewRaw("SELECT user_name FROM rolegate_changes WHERE ns = ? AND user_name <> ''", s.NS).Scan(ctx, &stored); err != nil {
				t.Fatal(err)
			}
			for _, v := range stored {
				if (s.Users != nil) != cipher.IsEncrypted(v) {
					t.Fatalf("change log user stored as %q", v)
				}
			}

			if err := storage.PruneChanges(ctx, db, s.NS, 2+storage.ChangesKept); err != nil {
				t.Fatal(err)
			}
			check("", 3, 5, []string{"jack"}, false, true)
			check("me", 1, 3, nil, false, false)
		}
	})
}

// Problems names every way a config fails to name a database, and
// nothing for one that does; the type's spellings are those of the URL
// schemes.
func TestConfigProblems(t *testing.T) {
	for _, tc := range []struct {
		cfg  storage.Config
		want []string
	}{
		{storage.Config{}, nil},
		{storage.Config{Type: "SQLite3", SQLitePath: "/tmp/x.db"}, nil},
		{storage.Config{Type: "postgres", PostgreSQLURL: "postgres://u@h/db"}, nil},
		{storage.Config{Type: "postgresql", URL: "sqlite:///tmp/x.db"}, nil},
		{storage.Config{Type: "postgresql"}, []string{"AUTH_POSTGRESQL_URL"}},
		{storage.Config{Type: "postgres"}, []string{"AUTH_POSTGRESQL_URL"}},
		{storage.Config{Type: "oracle"}, []string{"AUTH_DATABASE_TYPE"}},
		{storage.Config{Type: "oracle", URL: "mysql://u@h/db"}, []string{"AUTH_DATABASE_TYPE", "AUTH_DATABASE_URL"}},
		{storage.Config{URL: "sqlite://"}, []string{"AUTH_DATABASE_URL"}},
	} {
		errs := tc.cfg.Problems()
		if len(errs) != len(tc.want) {
			t.Errorf("%+v: %v, want %d problems", tc.cfg, errs, len(tc.want))
			continue
		}
		for i, err := range errs {
			if !strings.Contains(err.Error(), tc.want[i]) || strings.HasPrefix(err.Error(), "storage:") {
				t.Errorf("%+v: %q, want one naming %s with no package prefix", tc.cfg, err, tc.want[i])
			}
		}
		if kind, _, err := storage.Resolve(tc.cfg); len(tc.want) == 0 && (err != nil || kind == "") {
			t.Errorf("%+v: resolves to %q, %v", tc.cfg, kind, err)
		}
	}
}
