package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// everyScopedList is everyList plus, for each scope, every list endpoint
// that takes ?scope=: each role's members, each user's roles and
// permissions, who can each permission in the scope.
func everyScopedList(t *testing.T, url, key string, users, perms, scopes []string) map[string]any {
	t.Helper()
	out := everyList(t, url, key, users, perms)
	get := func(name string, args ...string) []map[string]any {
		var v []map[string]any
		jsonOut(t, url, key, &v, args...)
		out[name] = v
		return v
	}
	var roles []map[string]any
	jsonOut(t, url, key, &roles, "role", "list")
	for _, s := range scopes {
		for _, r := range roles {
			role := r["role"].(string)
			get(s+": members of "+role, "role", "members", role, "--scope", s)
		}
		for _, u := range users {
			get(s+": roles of "+u, "user", "roles", u, "--scope", s)
			get(s+": permissions of "+u, "user", "permissions", u, "--scope", s)
		}
		for _, p := range perms {
			get(s+": who can "+p, "who-can", p, "--scope", s)
		}
	}
	return out
}

// seedScoped makes a namespace with global and scoped memberships in
// three scopes, none of which the later commands name.
func seedScoped(t *testing.T, url, key string) {
	t.Helper()
	for _, args := range [][]string{
		{"role", "add", "viewer"}, {"role", "add", "editor"}, {"role", "add", "admin"},
		{"grant", "add", "viewer", "read"}, {"grant", "add", "editor", "edit"}, {"grant", "add", "admin", "delete"},
		{"inherit", "add", "editor", "viewer"},
		{"member", "add", "alice", "viewer"},
		{"member", "add", "alice", "editor", "--scope", "org-1"},
		{"member", "add", "bob", "admin", "--scope", "org-1"},
		{"member", "add", "bob", "viewer", "--scope", "org-2"},
		{"member", "add", "Zoë Ünicode", "editor", "--scope", "tenant ä"},
		{"member", "add", "alice", "admin", "--scope", "tenant ä"},
	} {
		must(t, 0, url, key, args...)
	}
}

var (
	scopedUsers  = []string{"alice", "bob", "Zoë Ünicode", "nobody"}
	scopedPerms  = []string{"read", "edit", "delete", "never granted"}
	scopedScopes = []string{"org-1", "org-2", "tenant ä", "org-unused"}
)

// TestBackupRestoreEveryScope: a backup without --scopes holds the scoped
// memberships of every scope; restored into a fresh namespace, every list
// endpoint answers the same, globally and in each scope. Before GET
// /api/scoped_memberships a backup held no scoped membership unless its
// scope was named.
func TestBackupRestoreEveryScope(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := startServer(t, target)
		src := newKey()
		seedScoped(t, s.url, src)
		before := everyScopedList(t, s.url, src, scopedUsers, scopedPerms, scopedScopes)
		file := filepath.Join(t.TempDir(), "backup.json")
		must(t, 0, s.url, src, "backup", "-f", file)
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var b backupFile
		if err := json.Unmarshal(raw, &b); err != nil || len(b.Memberships) != 6 {
			t.Fatalf("backup: %v, %d memberships, want 6:\n%s", err, len(b.Memberships), raw)
		}
		dst := newKey()
		if r := must(t, 0, s.url, dst, "restore", "-f", file, "--yes"); !strings.Contains(r.stdout, "restored 13 change(s)") {
			t.Errorf("restore: %q", r.stdout)
		}
		after := everyScopedList(t, s.url, dst, scopedUsers, scopedPerms, scopedScopes)
		if !reflect.DeepEqual(before, after) {
			for k := range before {
				if !reflect.DeepEqual(before[k], after[k]) {
					t.Errorf("%s: before %v, after %v", k, before[k], after[k])
				}
			}
		}
		// The deprecated --scopes flag is accepted and changes nothing.
		file2 := filepath.Join(t.TempDir(), "backup2.json")
		must(t, 0, s.url, src, "backup", "-f", file2, "--scopes", "org-1")
		var b2 backupFile
		raw2, _ := os.ReadFile(file2)
		if err := json.Unmarshal(raw2, &b2); err != nil || !reflect.DeepEqual(b2.Memberships, b.Memberships) {
			t.Errorf("backup with --scopes: %v, memberships %v, want %v", err, b2.Memberships, b.Memberships)
		}
	})
}

// TestPolicyEveryScope: policy export --memberships holds every scope;
// applying the export is a no-op; a file that manages memberships removes
// a stale scoped membership in a scope the file does not name.
func TestPolicyEveryScope(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := startServer(t, target)
		k := newKey()
		seedScoped(t, s.url, k)
		exp := must(t, 0, s.url, k, "policy", "export", "--memberships").stdout
		for _, want := range []string{"scope: org-1", "scope: org-2", "tenant ä"} {
			if !strings.Contains(exp, want) {
				t.Errorf("export lacks %q:\n%s", want, exp)
			}
		}
		f := writeFile(t, "p.yaml", exp)
		if r := must(t, 0, s.url, k, "policy", "diff", "-f", f, "--exit-code"); strings.TrimSpace(r.stdout) != "no changes" {
			t.Errorf("diff of the export: %q", r.stdout)
		}
		must(t, 0, s.url, k, "policy", "apply", "-f", f)
		if again := must(t, 0, s.url, k, "policy", "export", "--memberships").stdout; again != exp {
			t.Errorf("export after apply:\n%s\nwant:\n%s", again, exp)
		}

		// Stale: bob's viewer membership in org-2, a scope the file below
		// does not name.
		policy := `version: 1
roles:
  - name: admin
    permissions: [delete]
  - name: editor
    permissions: [edit]
    inherits: [viewer]
  - name: viewer
    permissions: [read]
memberships:
  - user: alice
    role: viewer
  - user: alice
    role: editor
    scope: org-1
`
		p := writeFile(t, "q.yaml", policy)
		diff := must(t, 1, s.url, k, "policy", "diff", "-f", p, "--exit-code").stdout
		for _, want := range []string{"org-2", "tenant ä"} {
			if !strings.Contains(diff, want) {
				t.Errorf("diff does not remove the memberships in %s:\n%s", want, diff)
			}
		}
		must(t, 0, s.url, k, "check", "bob", "read", "--scope", "org-2")
		must(t, 0, s.url, k, "policy", "apply", "-f", p)
		must(t, 1, s.url, k, "check", "bob", "read", "--scope", "org-2")
		must(t, 1, s.url, k, "check", "bob", "delete", "--scope", "org-1")
		must(t, 1, s.url, k, "check", "Zoë Ünicode", "edit", "--scope", "tenant ä")
		must(t, 0, s.url, k, "check", "alice", "read", "--scope", "org-1")
		must(t, 0, s.url, k, "check", "alice", "edit", "--scope", "org-1")
		if r := must(t, 0, s.url, k, "policy", "diff", "-f", p, "--exit-code"); strings.TrimSpace(r.stdout) != "no changes" {
			t.Errorf("diff after apply: %q", r.stdout)
		}
	})
}

// TestEveryScopeRefusedWithoutRoute: against a server that has scopes but
// does not document GET /api/scoped_memberships (an older release), the
// commands that need every scope refuse (exit 1) instead of writing a
// partial backup or leaving stale memberships; policies without
// memberships still work.
func TestEveryScopeRefusedWithoutRoute(t *testing.T) {
	s := startServer(t, storagetest.SQLite(t))
	older := olderServer(t, s.url)
	k := newKey()
	seedScoped(t, s.url, k)
	if featureScopedList.present(openAPIDoc(t, older)) || !featureScopes.present(openAPIDoc(t, older)) {
		t.Fatal("the older server's document should have scopes and lack the route")
	}
	file := filepath.Join(t.TempDir(), "b.json")
	for _, args := range [][]string{
		{"backup", "-f", file},
		{"restore", "-f", writeFile(t, "b.json", `{"format":"rolegate-backup","version":1,"policy":{"version":1,"roles":[]},"memberships":[]}`)},
		{"policy", "export", "--memberships"},
		{"policy", "diff", "-f", writeFile(t, "m.yaml", "version: 1\nroles: []\nmemberships: []\n")},
	} {
		r := must(t, 1, older, k, args...)
		if !strings.Contains(r.stderr, "/api/scoped_memberships") {
			t.Errorf("%v: stderr %q does not name the missing route", args, r.stderr)
		}
	}
	if _, err := os.Stat(file); err == nil {
		t.Error("a refused backup wrote its file")
	}
	must(t, 0, older, k, "policy", "export")
}

// olderServer proxies to url but serves an OpenAPI document without GET
// /api/scoped_memberships.
func olderServer(t *testing.T, target string) string {
	t.Helper()
	u, _ := url.Parse(target)
	proxy := httputil.NewSingleHostReverseProxy(u)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/openapi.json" {
			proxy.ServeHTTP(w, r)
			return
		}
		resp, err := http.Get(target + "/openapi.json")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		var doc map[string]any
		raw, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(raw, &doc); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		delete(doc["paths"].(map[string]any), "/api/scoped_memberships")
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(doc)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}
