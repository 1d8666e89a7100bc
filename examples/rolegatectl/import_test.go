package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

const fixtures = "casbinimport/testdata/"

// TestImportCasbinCSV: the RBAC example imports with the answers Casbin
// gives; a dry run changes nothing; a second import finds nothing to add;
// a policy with deny rules is refused.
func TestImportCasbinCSV(t *testing.T) {
	s := startServer(t, storagetest.SQLite(t))
	k := newKey()
	must(t, 0, s.url, k, "role", "add", "existing")
	r := must(t, 0, s.url, k, "import", "casbin", "--policy", fixtures+"rbac_policy.csv", "--dry-run")
	if !strings.Contains(r.stdout, "add_membership") {
		t.Errorf("dry run: %q", r.stdout)
	}
	must(t, 1, s.url, k, "check", "alice", "data1:read")
	r = must(t, 0, s.url, k, "import", "casbin", "--policy", fixtures+"rbac_policy.csv")
	// 11: data2_admin, a subject of its own p lines, is a member of itself
	// (Casbin's g(x, x)).
	if !strings.Contains(r.stdout, "imported 11 change(s), skipped 0") {
		t.Errorf("import: %q", r.stdout)
	}
	for _, c := range []struct {
		user, perm string
		want       int
	}{
		{"alice", "data1:read", 0}, {"alice", "data2:read", 0}, {"alice", "data2:write", 0},
		{"alice", "data1:write", 1}, {"bob", "data2:write", 0}, {"bob", "data2:read", 1}, {"bob", "data1:read", 1},
	} {
		must(t, c.want, s.url, k, "check", c.user, c.perm)
	}
	must(t, 0, s.url, k, "role", "permissions", "existing") // an import removes nothing
	if r := must(t, 0, s.url, k, "import", "casbin", "--policy", fixtures+"rbac_policy.csv"); !strings.Contains(r.stdout, "imported 0 change(s)") {
		t.Errorf("second import: %q", r.stdout)
	}

	k2 := newKey()
	r = must(t, 2, s.url, k2, "import", "casbin", "--policy", fixtures+"rbac_with_deny_policy.csv")
	if !strings.Contains(r.stderr, "deny effects") {
		t.Errorf("deny policy not refused: %q", r.stderr)
	}
	must(t, 1, s.url, k2, "check", "alice", "data1:read") // refused: nothing written
	must(t, 2, s.url, k2, "import", "casbin")
	must(t, 2, s.url, k2, "import", "casbin", "--policy", "nonexistent.csv")
}

// TestImportCasbinTable: the same rules from a casbin_rule table (the
// layout of Casbin's database adapters, in SQLite and in PostgreSQL)
// import alike.
func TestImportCasbinTable(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := startServer(t, storagetest.SQLite(t))
		url := "sqlite://" + filepath.Join(t.TempDir(), "casbin.db")
		id := "id INTEGER PRIMARY KEY AUTOINCREMENT"
		if target.Name == "postgresql" {
			url, id = target.Config.PostgreSQLURL, "id SERIAL PRIMARY KEY"
		}
		db, err := openCasbinDB(url)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for _, q := range []string{
			`CREATE TABLE casbin_rule (` + id + `, ptype VARCHAR(100), v0 VARCHAR(100), v1 VARCHAR(100), v2 VARCHAR(100), v3 VARCHAR(100), v4 VARCHAR(100), v5 VARCHAR(100))`,
			`INSERT INTO casbin_rule (ptype, v0, v1, v2, v3, v4, v5) VALUES ('p', 'data2_admin', 'data2', 'read', '', '', ''), ('p', 'data2_admin', 'data2', 'write', NULL, NULL, NULL), ('g', 'alice', 'data2_admin', '', '', '', ''), ('p', 'x', 'y/z', 'z', '', '', '')`,
		} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		k := newKey()
		r := must(t, 1, s.url, k, "import", "casbin", "--db", url)
		if !strings.Contains(r.stdout, "skipped 1 rule(s)") || !strings.Contains(r.stderr, "not a valid rolegate name") {
			t.Errorf("import: %q %q", r.stdout, r.stderr)
		}
		must(t, 0, s.url, k, "check", "alice", "data2:write")
		must(t, 1, s.url, k, "check", "x", "y:z")
		// The URL from the environment instead of a flag.
		var out, errb strings.Builder
		envs := map[string]string{"ROLEGATE_KEY": newKey(), "ROLEGATE_CASBIN_DB": url}
		if code := run([]string{"--url", s.url, "import", "casbin", "--dry-run"}, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
			getenv: func(k string) string { return envs[k] }}); code != 1 || !strings.Contains(out.String(), "data2_admin") {
			t.Errorf("ROLEGATE_CASBIN_DB: exit %d, %q %q", code, out.String(), errb.String())
		}
		must(t, 2, s.url, k, "import", "casbin", "--db", url, "--table", "x; drop")
		must(t, 1, s.url, k, "import", "casbin", "--db", url, "--table", "no_such_table")
	})
}
