package faulttest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
)

// newStandby makes a streaming hot standby of primary (running) in a
// folder of its own under base: pg_basebackup -R (the standby.signal and
// primary_conninfo), replaying WAL delay after the primary committed it
// (recovery_min_apply_delay). It runs as the primary's OS user.
func newStandby(t *testing.T, primary *pgServer, base string, delay time.Duration) *pgServer {
	t.Helper()
	s := &pgServer{bin: serverBin(t, primary.bin, "pg_basebackup"), dir: filepath.Join(base, "standby"), cred: primary.cred,
		opts: fmt.Sprintf("-c hot_standby=on -c recovery_min_apply_delay=%dms", delay.Milliseconds())}
	s.data = filepath.Join(s.dir, "data")
	s.sock = filepath.Join(s.dir, "sock")
	s.log = filepath.Join(s.dir, "server.log")
	if err := os.MkdirAll(s.sock, 0o700); err != nil {
		t.Fatal(err)
	}
	if s.cred != nil {
		for _, d := range []string{s.dir, s.sock} {
			if err := os.Chown(d, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, err := s.run("pg_basebackup", "-D", s.data, "-h", "127.0.0.1", "-p", strconv.Itoa(primary.port),
		"-U", "postgres", "-R", "-X", "stream", "--no-sync")
	if err != nil {
		t.Fatalf("pg_basebackup: %v\n%s", err, out)
	}
	return s
}

// serverBin is the folder of the server binaries that holds tool too:
// bin, or the folder initdb's link in bin points to (a PATH that links
// initdb, pg_ctl and postgres alone).
func serverBin(t *testing.T, bin, tool string) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(bin, tool)); err == nil {
		return bin
	}
	if real, err := filepath.EvalSymlinks(filepath.Join(bin, "initdb")); err == nil {
		if dir := filepath.Dir(real); dir != bin {
			if _, err := os.Stat(filepath.Join(dir, tool)); err == nil {
				return dir
			}
		}
	}
	skipOrFail(t, tool+" not found beside initdb ("+bin+"); install the PostgreSQL server package")
	return ""
}

// sqlDB opens a plain database/sql handle on s, for the test's own
// questions (replay pause and resume, revisions).
func sqlDB(t *testing.T, s *pgServer) *sql.DB {
	t.Helper()
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(s.url()), pgdriver.WithTimeout(5*time.Second)))
	t.Cleanup(func() { db.Close() })
	return db
}

// revisionOf reads the namespace's revision on db (0 when it has none).
func revisionOf(ctx context.Context, db *sql.DB, ns string) (int64, error) {
	var rev int64
	err := db.QueryRowContext(ctx, "SELECT revision FROM rolegate_revisions WHERE ns = $1", ns).Scan(&rev)
	if err == sql.ErrNoRows {
		return 0, nil
	}
	return rev, err
}
