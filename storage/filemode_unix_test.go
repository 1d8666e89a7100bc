//go:build unix

package storage_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rolegate/rolegate/storage"
)

// The SQLite file holds the audit key and login sessions: it, its -wal and
// -shm files are created readable by the owner only, and so is the folder
// rolegate creates for them, whatever the usual umask lets through.
func TestSQLiteFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o022) // the common default, which lets others read
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "new", "folder")
	path := filepath.Join(dir, "auth.sqlite3")
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{Type: storage.TypeSQLite, SQLitePath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := storage.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if _, err := storage.GetOrInitSetting(ctx, db, "probe", func() (string, error) { return "x", nil }); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want os.FileMode
	}{{dir, 0o700}, {filepath.Dir(dir), 0o700}, {path, 0o600}, {path + "-wal", 0o600}, {path + "-shm", 0o600}} {
		fi, err := os.Stat(tc.path)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if got := fi.Mode().Perm(); got != tc.want {
			t.Errorf("%s: mode %o, want %o", filepath.Base(tc.path), got, tc.want)
		}
	}
}
