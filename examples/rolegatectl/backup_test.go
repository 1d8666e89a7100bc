package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// everyList reads every list endpoint of a namespace through the CLI:
// roles, each role's permissions and members, each user's roles and
// permissions, and who and which roles can each permission.
func everyList(t *testing.T, url, key string, users, perms []string) map[string]any {
	t.Helper()
	out := map[string]any{}
	get := func(name string, args ...string) []map[string]any {
		var v []map[string]any
		jsonOut(t, url, key, &v, args...)
		out[name] = v
		return v
	}
	for _, r := range get("roles", "role", "list") {
		role := r["role"].(string)
		get("permissions of "+role, "role", "permissions", role)
		get("members of "+role, "role", "members", role)
	}
	for _, u := range users {
		get("roles of "+u, "user", "roles", u)
		get("permissions of "+u, "user", "permissions", u)
	}
	for _, p := range perms {
		get("who can "+p, "who-can", p)
		get("roles that can "+p, "which-roles", p)
	}
	return out
}

// TestBackupRestore: a backup restored into an empty namespace gives the
// same answer on every list endpoint; a non-empty namespace refuses
// unless --merge.
func TestBackupRestore(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := startServer(t, target)
		src := newKey()
		users := []string{"alice", "bob", "Zoë Ünicode", "carol@example.com"}
		perms := []string{"read", "edit", "delete", "notes:write", "never granted"}
		for _, args := range [][]string{
			{"role", "add", "viewer", "-d", "Reads\tnotes"}, {"role", "add", "editor", "-d", "Writes notes"},
			{"role", "add", "admin"}, {"role", "add", "empty role"},
			{"grant", "add", "viewer", "read"}, {"grant", "add", "editor", "read"}, {"grant", "add", "editor", "edit"},
			{"grant", "add", "editor", "notes:write"}, {"grant", "add", "admin", "delete"},
			{"member", "add", "alice", "viewer"}, {"member", "add", "alice", "admin"}, {"member", "add", "bob", "editor"},
			{"member", "add", "Zoë Ünicode", "viewer"}, {"member", "add", "carol@example.com", "editor"},
		} {
			must(t, 0, s.url, src, args...)
		}
		before := everyList(t, s.url, src, users, perms)
		file := filepath.Join(t.TempDir(), "backup.json")
		must(t, 0, s.url, src, "backup", "-f", file, "--audit")
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var b backupFile
		if err := json.Unmarshal(raw, &b); err != nil || len(b.Audit) != 14 || len(b.Memberships) != 5 {
			t.Fatalf("backup: %v, %d audit records, %d memberships", err, len(b.Audit), len(b.Memberships))
		}
		if st, _ := os.Stat(file); st.Mode().Perm() != 0o600 {
			t.Errorf("backup file mode %v, want 0600", st.Mode().Perm())
		}

		dst := newKey()
		if r := must(t, 0, s.url, dst, "restore", "-f", file, "--yes"); !strings.Contains(r.stdout, "restored 14 change(s)") {
			t.Errorf("restore: %q", r.stdout)
		}
		after := everyList(t, s.url, dst, users, perms)
		if !reflect.DeepEqual(before, after) {
			for k := range before {
				if !reflect.DeepEqual(before[k], after[k]) {
					t.Errorf("%s: before %v, after %v", k, before[k], after[k])
				}
			}
		}
		// Not empty now: refused, and nothing changed.
		must(t, 0, s.url, dst, "grant", "add", "admin", "extra")
		if r := must(t, 1, s.url, dst, "restore", "-f", file); !strings.Contains(r.stderr, "not empty") {
			t.Errorf("restore into a non-empty namespace: %q", r.stderr)
		}
		must(t, 0, s.url, dst, "member", "delete", "bob", "editor")
		if r := must(t, 0, s.url, dst, "restore", "-f", file, "--merge", "--yes"); !strings.Contains(r.stdout, "restored 1 change(s)") {
			t.Errorf("merge: %q", r.stdout)
		}
		must(t, 0, s.url, dst, "grant", "check", "admin", "extra") // a merge removes nothing
		must(t, 0, s.url, dst, "check", "bob", "edit")
		bad := writeFile(t, "bad.json", `{"format":"something else"}`)
		must(t, 2, s.url, newKey(), "restore", "-f", bad)
	})
}
