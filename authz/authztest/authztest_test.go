package authztest_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/authz/authztest"
)

const policy = `version: 1
roles:
  - name: viewer
    permissions: [read]
  - name: editor
    permissions: [edit]
    inherits: [viewer]
  - name: moderator
    permissions: [notes.delete]
memberships:
  - {user: alice, role: editor}
  - {user: jack, role: moderator, scope: org-7}
  - {user: intern, role: viewer}
tests:
  - {user: alice, permission: read, allow: true}
  - {user: jack, permission: notes.delete, scope: org-7, allow: true}
  - {user: intern, permission: notes.delete, allow: false, name: interns never delete}
`

func parse(t *testing.T, src string) authz.Policy {
	t.Helper()
	p, err := authz.ParsePolicy([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// recorder is a T that keeps what the assertions report.
type recorder struct {
	*testing.T
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// TestAssertions: the helpers pass on the policy's answers, global and
// scoped, and the file's own tests hold.
func TestAssertions(t *testing.T) {
	s := authztest.New(t, parse(t, policy), authztest.Options{})
	s.Allow(t, "alice", "read") // inherited
	s.Allow(t, "alice", "edit")
	s.Deny(t, "alice", "notes.delete")
	s.AllowIn(t, "org-1", "alice", "edit") // a global membership holds in every scope
	s.AllowIn(t, "org-7", "jack", "notes.delete")
	s.DenyIn(t, "org-8", "jack", "notes.delete")
	s.Deny(t, "jack", "notes.delete") // only scoped
	s.Deny(t, "nobody", "read")
	s.Cases(t, s.Policy.Tests)
}

// TestWrongCaseExplained: a wrong case is reported with its name, line,
// fields, the expected and the given answer, and why, in a few lines.
func TestWrongCaseExplained(t *testing.T) {
	s := authztest.New(t, parse(t, policy), authztest.Options{})
	for _, tc := range []struct {
		c    authz.PolicyCase
		want []string
	}{
		{authz.PolicyCase{User: "alice", Permission: "read", Allow: false, Name: "alice never reads", Line: 12},
			[]string{"FAIL line 12: alice never reads", "user: alice  permission: read  scope: (global)", "expected: deny  got: allow",
				"why: alice is a member of editor (global), which inherits viewer, which is granted read"}},
		{authz.PolicyCase{User: "jack", Permission: "notes.delete", Scope: "org-2", Allow: true},
			[]string{"FAIL: jack may notes.delete in org-2", "scope: org-2", "expected: allow  got: deny",
				"jack holds no membership that counts in org-2", "roles holding notes.delete: moderator", "jack holds it in org-7 (through moderator)"}},
		{authz.PolicyCase{User: "intern", Permission: "edit", Allow: true},
			[]string{"intern is a member of viewer (global); none of these roles holds edit", "roles holding edit: editor"}},
	} {
		rec := &recorder{T: t}
		s.Cases(rec, []authz.PolicyCase{tc.c})
		if len(rec.errors) != 1 {
			t.Fatalf("%s: %d reports, want 1: %q", tc.c.Title(), len(rec.errors), rec.errors)
		}
		msg := rec.errors[0]
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("report lacks %q:\n%s", w, msg)
			}
		}
		if n := strings.Count(msg, "\n"); n > 6 {
			t.Errorf("report of %d lines:\n%s", n, msg)
		}
	}
}

// TestCheckAnswersInOrder: Check answers every case in order and
// explains only the failures.
func TestCheckAnswersInOrder(t *testing.T) {
	s := authztest.New(t, parse(t, policy), authztest.Options{})
	cases := []authz.PolicyCase{
		{User: "alice", Permission: "edit", Allow: true},
		{User: "alice", Permission: "edit", Scope: "org-2", Allow: false},
		{User: "intern", Permission: "read", Allow: true},
	}
	res, err := s.Check(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || res[0].Failed() || !res[1].Failed() || res[1].Got != true || res[2].Failed() {
		t.Errorf("results = %+v", res)
	}
	if res[1].Why == "" || res[0].Why != "" {
		t.Errorf("only failures are explained: %q %q", res[0].Why, res[1].Why)
	}
}

// TestLinksNothingOfTests: the package does not import package testing,
// and authz does not import it, so a host's build links neither.
func TestLinksNothingOfTests(t *testing.T) {
	for pkg, banned := range map[string]string{".": "testing", "../": "authztest"} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == banned || strings.HasSuffix(dep, "/"+banned) || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("%s links %s", pkg, dep)
			}
		}
	}
}
