package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// rolegatectl's --until and --from (RFC 3339 or a duration from now) on
// member add (global and scoped) and grant add; the lists show the bounds
// and a row outside its window as not held; a backup keeps the bounds and
// restores them exactly (the namespaces' exports equal), leaving out what
// expired since; policy export writes until and from, and policy diff
// shows a bound change. On both stores.
func TestCtlTimeBounds(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := startServer(t, target)
		k := newKey()
		friday := time.Now().Add(96 * time.Hour).UTC().Truncate(time.Second)
		davesEnd := friday.Add(time.Hour)
		for _, args := range [][]string{
			{"role", "add", "editor"},
			{"grant", "add", "editor", "edit"},
			{"grant", "add", "editor", "deploy", "--until", "72h"},
			{"member", "add", "carol", "editor"},
			{"member", "add", "bob", "editor", "--from", "2d", "--until", friday.Format(time.RFC3339)},
			{"member", "add", "dave", "editor", "--scope", "org-1", "--until", davesEnd.Format(time.RFC3339)},
		} {
			must(t, 0, s.url, k, args...)
		}
		r := must(t, 0, s.url, k, "member", "add", "alice", "editor", "--until", "2h")
		if !strings.Contains(r.stdout, "membership of alice in editor until ") {
			t.Errorf("member add --until said %q", r.stdout)
		}
		if r := must(t, 2, s.url, k, "member", "add", "erin", "editor", "--until", "Friday"); !strings.Contains(r.stderr, "--until") {
			t.Errorf("a bad --until: %q", r.stderr)
		}
		if r := must(t, 1, s.url, k, "member", "add", "erin", "editor", "--until", "-1h"); !strings.Contains(r.stderr, "expires_at") {
			t.Errorf("an --until past: %q", r.stderr)
		}
		var members []map[string]any
		jsonOut(t, s.url, k, &members, "role", "members", "editor")
		if len(members) != 3 || members[0]["user"] != "alice" || members[0]["held"] != true || members[0]["expires_at"] == nil ||
			members[1]["user"] != "bob" || members[1]["held"] != false || members[1]["starts_at"] == nil ||
			members[2]["user"] != "carol" || members[2]["held"] != nil {
			t.Errorf("members: %v", members)
		}
		if r := must(t, 0, s.url, k, "role", "members", "editor"); !strings.Contains(r.stdout, "EXPIRES_AT") || !strings.Contains(r.stdout, "false") {
			t.Errorf("members table:\n%s", r.stdout)
		}
		// who-can says until when: alice's membership ends in 2 h, carol's
		// path in 72 h (the grant's end).
		if r := must(t, 0, s.url, k, "who-can", "deploy"); !strings.Contains(r.stdout, "UNTIL") || !strings.Contains(r.stdout, "alice") ||
			!strings.Contains(r.stdout, "carol") || strings.Contains(r.stdout, "bob") {
			t.Errorf("who-can table:\n%s", r.stdout)
		}
		must(t, 0, s.url, k, "check", "alice", "deploy")
		must(t, 1, s.url, k, "check", "bob", "edit") // from the day after tomorrow

		file := filepath.Join(t.TempDir(), "backup.json")
		must(t, 0, s.url, k, "backup", "-f", file)
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(raw), `"expires_at"`); n != 4 {
			t.Errorf("the backup holds %d expires_at, want 4:\n%s", n, raw)
		}
		dst := newKey()
		must(t, 0, s.url, dst, "restore", "-f", file, "--yes")
		export := func(key string) any {
			c, err := s.az.Client(key)
			if err != nil {
				t.Fatal(err)
			}
			p, err := c.ExportPolicy(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var v any
			b, _ := json.Marshal(p)
			json.Unmarshal(b, &v)
			return v
		}
		if a, b := export(k), export(dst); !reflect.DeepEqual(a, b) {
			t.Errorf("restored:\n%v\nbacked up:\n%v", b, a)
		}
		// A backup whose bound has passed restores the rest.
		old := strings.Replace(string(raw), davesEnd.Format(time.RFC3339), "2001-01-01T00:00:00Z", 1)
		oldKey := newKey()
		must(t, 0, s.url, oldKey, "restore", "-f", writeFile(t, "old.json", old), "--yes")
		if b, _ := json.Marshal(export(oldKey)); strings.Contains(string(b), "dave") || !strings.Contains(string(b), "alice") {
			t.Errorf("a restore after dave's until: %s", b)
		}

		r = must(t, 0, s.url, k, "policy", "export", "--memberships")
		for _, want := range []string{"until: " + friday.Format(time.RFC3339), "from: ", "timed_permissions:"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("policy export lacks %q:\n%s", want, r.stdout)
			}
		}
		later := friday.Add(24 * time.Hour).Format(time.RFC3339)
		moved := writeFile(t, "p.yaml", strings.Replace(r.stdout, "until: "+friday.Format(time.RFC3339)+"\n", "until: "+later+"\n", 1))
		if moved == "" || !strings.Contains(mustRead(t, moved), later) {
			t.Fatalf("the bound was not moved:\n%s", mustRead(t, moved))
		}
		d := must(t, 0, s.url, k, "policy", "diff", "-f", moved)
		if lines := strings.Split(strings.TrimSpace(d.stdout), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "add_membership") ||
			!strings.Contains(lines[1], "bob") || !strings.Contains(lines[1], later) || !strings.Contains(lines[0], "UNTIL") {
			t.Errorf("policy diff of a moved bound:\n%s", d.stdout)
		}
	})
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
