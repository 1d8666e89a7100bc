// Tests of role inheritance, scoped memberships and ?explain=true through
// the command line. Each first asserts that the server documents the feature, so none can
// pass against a server without it.

package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

func engineServer(t *testing.T, target storagetest.Target) *server {
	t.Helper()
	s := startServer(t, target)
	doc := openAPIDoc(t, s.url)
	for _, f := range []feature{featureInheritance, featureScopes, featureBatch} {
		if !f.present(doc) {
			t.Fatalf("the server does not document %s", f.what)
		}
	}
	return s
}

// TestInheritanceCommands: inherit add/list/delete, cycles refused (exit
// 1), effective answers.
func TestInheritanceCommands(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := engineServer(t, target)
		k := newKey()
		for _, args := range [][]string{
			{"role", "add", "viewer"}, {"role", "add", "editor"}, {"role", "add", "admin"},
			{"grant", "add", "viewer", "read"}, {"grant", "add", "editor", "edit"},
			{"member", "add", "alice", "admin"},
		} {
			must(t, 0, s.url, k, args...)
		}
		if r := must(t, 0, s.url, k, "inherit", "add", "editor", "viewer"); !strings.Contains(r.stdout, "created") {
			t.Errorf("inherit add: %q", r.stdout)
		}
		if r := must(t, 0, s.url, k, "inherit", "add", "editor", "viewer"); !strings.Contains(r.stdout, "existed") {
			t.Errorf("inherit add again: %q", r.stdout)
		}
		must(t, 0, s.url, k, "inherit", "add", "admin", "editor")
		must(t, 1, s.url, k, "inherit", "add", "viewer", "admin") // a cycle: 409
		must(t, 1, s.url, k, "inherit", "add", "viewer", "nosuch")
		var parents []map[string]string
		jsonOut(t, s.url, k, &parents, "inherit", "list", "admin")
		if !reflect.DeepEqual(parents, []map[string]string{{"role": "editor"}}) {
			t.Errorf("inherit list admin = %v", parents)
		}
		must(t, 0, s.url, k, "check", "alice", "read")
		var perms []map[string]string
		jsonOut(t, s.url, k, &perms, "role", "permissions", "admin", "--effective")
		if len(perms) != 2 {
			t.Errorf("effective permissions of admin = %v", perms)
		}
		r := must(t, 0, s.url, k, "check", "alice", "read", "--explain")
		if !strings.Contains(r.stdout, "allowed") || !strings.Contains(r.stdout, "viewer") || strings.Contains(r.stdout, "no explanation") {
			t.Errorf("explain: %q", r.stdout)
		}
		must(t, 0, s.url, k, "inherit", "delete", "admin", "editor")
		must(t, 1, s.url, k, "check", "alice", "read")
	})
}

// TestScopedMemberships: a membership in one scope holds there only; a
// global one everywhere.
func TestScopedMemberships(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := engineServer(t, target)
		k := newKey()
		must(t, 0, s.url, k, "role", "add", "editor")
		must(t, 0, s.url, k, "grant", "add", "editor", "edit")
		must(t, 0, s.url, k, "member", "add", "alice", "editor", "--scope", "org-42")
		must(t, 0, s.url, k, "member", "add", "bob", "editor")
		must(t, 0, s.url, k, "check", "alice", "edit", "--scope", "org-42")
		must(t, 1, s.url, k, "check", "alice", "edit", "--scope", "org-7")
		must(t, 1, s.url, k, "check", "alice", "edit")
		must(t, 0, s.url, k, "check", "bob", "edit", "--scope", "org-7")
		must(t, 0, s.url, k, "member", "check", "alice", "editor", "--scope", "org-42")
		var users []map[string]string
		jsonOut(t, s.url, k, &users, "who-can", "edit", "--scope", "org-42")
		want := []map[string]string{{"user": "alice", "scope": "org-42"}, {"user": "bob"}}
		if !reflect.DeepEqual(users, want) {
			t.Errorf("who-can edit in org-42 = %v, want %v", users, want)
		}
		must(t, 0, s.url, k, "member", "delete", "alice", "editor", "--scope", "org-42")
		must(t, 1, s.url, k, "check", "alice", "edit", "--scope", "org-42")
	})
}

// TestPolicyAndBackupWithEngine: a policy with inheritance and scoped
// memberships applies, diffs empty, exports equal; a backup with --scopes
// restores them.
func TestPolicyAndBackupWithEngine(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := engineServer(t, target)
		k := newKey()
		policy := `version: 1
roles:
  - name: editor
    permissions:
      - edit
    inherits:
      - viewer
  - name: viewer
    permissions:
      - read
memberships:
  - user: alice
    role: editor
    scope: org-42
  - user: bob
    role: viewer
`
		f := writeFile(t, "p.yaml", policy)
		must(t, 0, s.url, k, "policy", "apply", "-f", f)
		must(t, 0, s.url, k, "check", "alice", "read", "--scope", "org-42")
		if r := must(t, 0, s.url, k, "policy", "diff", "-f", f, "--exit-code"); strings.TrimSpace(r.stdout) != "no changes" {
			t.Errorf("diff: %q", r.stdout)
		}
		file := filepath.Join(t.TempDir(), "b.json")
		must(t, 0, s.url, k, "backup", "-f", file, "--scopes", "org-42")
		dst := newKey()
		must(t, 0, s.url, dst, "restore", "-f", file, "--yes")
		must(t, 0, s.url, dst, "check", "alice", "read", "--scope", "org-42")
		must(t, 1, s.url, dst, "check", "alice", "read")
		var parents []map[string]string
		jsonOut(t, s.url, dst, &parents, "inherit", "list", "editor")
		if !reflect.DeepEqual(parents, []map[string]string{{"role": "viewer"}}) {
			t.Errorf("restored inheritance = %v", parents)
		}
		raw, _ := os.ReadFile(file)
		if !strings.Contains(string(raw), `"scope": "org-42"`) {
			t.Errorf("backup lacks the scoped membership:\n%s", raw)
		}
	})
}
