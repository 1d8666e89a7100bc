package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// hostileBackup grants everything to attacker: a role with "*" and
// "admin", attacker a member of it, in 10 changes.
const hostileBackup = `{"format":"rolegate-backup","version":1,"created":"2026-11-01T00:00:00Z",
 "policy":{"version":1,"roles":[
  {"name":"admin","permissions":["*","admin"]},
  {"name":"viewer","permissions":["read"]},
  {"name":"root","permissions":["delete"],"inherits":["admin"]}]},
 "memberships":[{"user":"attacker","role":"admin"},{"user":"attacker","role":"root","scope":"org-1"}]%s}`

// TestRestoreSaysWhatItWillDo (issue 33, point 12): a hostile backup is
// not restored silently: restore prints its changes and who gains what,
// and changes nothing without --yes; keys a backup never holds are
// refused, naming them; a backup from another namespace restores with a
// warning, one from the same namespace without, and one written before
// backups recorded their namespace still restores.
func TestRestoreSaysWhatItWillDo(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := startServer(t, target)
		hostile := writeFile(t, "hostile.json", strings.Replace(hostileBackup, "%s", "", 1))
		k := newKey()
		r := must(t, 1, s.url, k, "restore", "-f", hostile)
		for _, want := range []string{
			"restore: 10 change(s): add_role 3, add_permission 4, add_inheritance 1, add_membership 1, add_membership (scoped) 1",
			"impact: 0 lost, 3 gained",
			"gained attacker * (global)",
			"gained attacker admin (global)",
			"gained attacker delete org-1",
		} {
			if !strings.Contains(squash(r.stdout), want) {
				t.Errorf("restore's summary lacks %q:\n%s", want, r.stdout)
			}
		}
		if !strings.Contains(r.stderr, "--yes") || !strings.Contains(r.stderr, "does not record the namespace") {
			t.Errorf("stderr: %q", r.stderr)
		}
		must(t, 1, s.url, k, "check", "attacker", "*") // nothing restored
		var roles []map[string]any
		jsonOut(t, s.url, k, &roles, "role", "list")
		if len(roles) != 0 {
			t.Fatalf("a refused restore stored roles: %v", roles)
		}

		// Keys rolegatectl never writes: refused (exit 2), all named.
		for extra, want := range map[string][]string{
			`,"evil":1,"extra":{"a":1}`:                            {"evil", "extra"},
			`,"Memberships":[{"user":"attacker","role":"viewer"}]`: {"Memberships"},
			`,"memberships":[]`:                                    {"memberships (twice)"},
			`,"policy":{"version":1,"roles":[],"grants":[]}`:       {"policy (twice)", "policy.grants"},
		} {
			f := writeFile(t, "extra.json", strings.Replace(hostileBackup, "%s", extra, 1))
			r := must(t, 2, s.url, k, "restore", "-f", f, "--yes")
			for _, w := range want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("%s: stderr %q does not name %q", extra, r.stderr, w)
				}
			}
		}
		nested := writeFile(t, "nested.json", strings.Replace(strings.Replace(hostileBackup, "%s", "", 1), `{"name":"viewer",`, `{"name":"viewer","grant":"x",`, 1))
		if r := must(t, 2, s.url, k, "restore", "-f", nested, "--yes"); !strings.Contains(r.stderr, "policy.roles[1].grant") {
			t.Errorf("nested unknown key: %q", r.stderr)
		}
		jsonOut(t, s.url, k, &roles, "role", "list")
		if len(roles) != 0 {
			t.Fatalf("a refused restore stored roles: %v", roles)
		}

		// An old backup (no namespace) restores with --yes.
		if r := must(t, 0, s.url, k, "restore", "-f", hostile, "--yes"); !strings.Contains(r.stdout, "restored 10 change(s)") {
			t.Errorf("restore --yes: %q", r.stdout)
		}

		// The namespace is recorded: restoring into another warns.
		file := filepath.Join(t.TempDir(), "b.json")
		must(t, 0, s.url, k, "backup", "-f", file)
		var b backupFile
		if err := json.Unmarshal([]byte(readFileT(t, file)), &b); err != nil || len(b.Namespace) != 32 || b.Namespace != namespaceFingerprint(strings.ToUpper(k)) || strings.Contains(readFileT(t, file), k) {
			t.Fatalf("backup namespace %q (%v)", b.Namespace, err)
		}
		other := newKey()
		if r := must(t, 0, s.url, other, "restore", "-f", file, "--yes"); !strings.Contains(r.stderr, "taken from another namespace") {
			t.Errorf("restore into another namespace: stderr %q", r.stderr)
		}
		must(t, 0, s.url, k, "role", "delete", "admin")
		must(t, 0, s.url, k, "role", "delete", "viewer")
		must(t, 0, s.url, k, "role", "delete", "root")
		if r := must(t, 0, s.url, k, "restore", "-f", file, "--yes"); r.stderr != "" {
			t.Errorf("restore into the same namespace: stderr %q", r.stderr)
		}
		// --dry-run shows and changes nothing.
		if r := must(t, 0, s.url, newKey(), "restore", "-f", file, "--dry-run"); !strings.Contains(r.stdout, "add_membership") || !strings.Contains(squash(r.stdout), "gained attacker") {
			t.Errorf("dry run: %q", r.stdout)
		}
	})
}

// squash is s with each run of spaces made one, so that a table's rows
// can be matched whatever its column widths.
func squash(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}
