package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestImportCasbinRefusals: a model or policy rolegate cannot express is
// refused with exit 2, a message naming what, and nothing written.
func TestImportCasbinRefusals(t *testing.T) {
	s := startServer(t, storagetest.SQLite(t))
	keymatch := writeFile(t, "keymatch.conf", `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
[role_definition]
g = _, _
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = g(r.sub, p.sub) && keyMatch(r.obj, p.obj) && r.act == p.act
`)
	abac := writeFile(t, "abac.conf", `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
[role_definition]
g = _, _
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act || r.sub.Age > 18
`)
	temporal := writeFile(t, "temporal.csv", "p, data2_admin, data2, read\ng, alice, data2_admin, 0000-01-01 00:00:00, 0000-01-02 00:00:00\n")
	several := writeFile(t, "several.csv", "p, user, /data, GET\np2, user, view\ng, alice, user\n")
	wildScope := writeFile(t, "wild.csv", "p, admin, domain1, data1, read\ng, alice, admin, *\n")
	wildUser := writeFile(t, "wilduser.csv", "p, *, pen3_group, GET\n")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"deny model", []string{"--model", fixtures + "rbac_with_deny_model.conf", "--policy", fixtures + "rbac_with_deny_policy.csv"}, "deny effects"},
		{"deny policy", []string{"--policy", fixtures + "rbac_with_deny_policy.csv"}, "deny effects"},
		{"keyMatch", []string{"--model", keymatch, "--policy", fixtures + "rbac_policy.csv"}, "pattern matchers"},
		{"ABAC", []string{"--model", abac, "--policy", fixtures + "rbac_policy.csv"}, "ABAC conditions"},
		{"time window", []string{"--policy", temporal}, "time-windowed"},
		{"p2", []string{"--policy", several}, "several policy"},
		{"* scope", []string{"--policy", wildScope}, "literal *"},
		{"* user", []string{"--policy", wildUser}, "literal *"},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := newKey()
			r := must(t, 2, s.url, k, append([]string{"import", "casbin"}, c.args...)...)
			if !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, "cannot express") {
				t.Errorf("stderr %q, want %q", r.stderr, c.want)
			}
			var roles []map[string]string
			jsonOut(t, s.url, k, &roles, "role", "list")
			if len(roles) != 0 {
				t.Errorf("a refused import wrote roles: %v", roles)
			}
		})
	}
}

// TestImportCasbinDomains: the hierarchy-with-domains example imports
// whole: a user's direct grant in a domain makes them a member there,
// role-to-role links inside a domain become inheritance, and a role is
// asked with check --role.
func TestImportCasbinDomains(t *testing.T) {
	s := startServer(t, storagetest.SQLite(t))
	k := newKey()
	must(t, 0, s.url, k, "import", "casbin", "--model", fixtures+"rbac_with_domains_model.conf", "--policy", fixtures+"rbac_with_hierarchy_with_domains_policy.csv")
	for _, c := range []struct {
		user, perm, scope string
		want              int
	}{
		{"alice", "data2:read", "domain1", 0}, {"alice", "data2:read", "domain2", 0},
		{"alice", "data1:read", "domain1", 0}, {"alice", "data1:write", "domain1", 0},
		{"alice", "data1:read", "domain2", 1}, {"alice", "data2:write", "domain1", 1},
		{"role:global_admin", "data1:read", "domain1", 1}, // role names are not users
	} {
		must(t, c.want, s.url, k, "check", c.user, c.perm, "--scope", c.scope)
	}
	must(t, 0, s.url, k, "check", "--role", "role:global_admin@domain1", "data1:write")
	must(t, 0, s.url, k, "check", "--role", "role:reader@domain1", "data1:read")
	must(t, 1, s.url, k, "check", "--role", "role:reader@domain1", "data1:write")
	must(t, 2, s.url, k, "check", "--role", "role:reader@domain1", "data1:read", "--scope", "domain1")
}

// TestImportCasbinSkipsExit1: a skipped line makes the exit code 1, on a
// dry run too, and the rest is imported as without it; names in messages
// have their control characters escaped.
func TestImportCasbinSkipsExit1(t *testing.T) {
	s := startServer(t, storagetest.SQLite(t))
	k := newKey()
	p := writeFile(t, "p.csv", "p, editor, notes, write\ng, alice, editor\np, bad\x1b[2Jname, notes, read\n")
	r := must(t, 1, s.url, k, "import", "casbin", "--policy", p, "--dry-run")
	if !strings.Contains(r.stdout, "add_membership") || !strings.Contains(r.stderr, `bad\x1b[2Jname`) || strings.ContainsRune(r.stderr, 0x1b) {
		t.Errorf("dry run: %q %q", r.stdout, r.stderr)
	}
	must(t, 1, s.url, k, "check", "alice", "notes:write")
	r = must(t, 1, s.url, k, "import", "casbin", "--policy", p)
	if !strings.Contains(r.stdout, "skipped 1 rule(s)") {
		t.Errorf("import: %q", r.stdout)
	}
	must(t, 0, s.url, k, "check", "alice", "notes:write")
	must(t, 1, s.url, k, "-o", "json", "import", "casbin", "--policy", p)
	// A model whose p lines differ from the policy's: each such line is
	// skipped with the model's count.
	r = must(t, 1, s.url, newKey(), "import", "casbin", "--model", fixtures+"rbac_with_domains_model.conf", "--policy", fixtures+"rbac_policy.csv")
	if !strings.Contains(r.stderr, "the model's p lines have 4") {
		t.Errorf("stderr %q", r.stderr)
	}
}

// TestImportCasbinFidelity: what would import with another meaning than
// Casbin's is refused with exit 2 naming its lines, and nothing written;
// a subject that is also a role keeps its grants; a chain longer than
// Casbin follows imports with a warning naming the users it concerns.
func TestImportCasbinFidelity(t *testing.T) {
	s := startServer(t, storagetest.SQLite(t))
	subjectPriority := writeFile(t, "subject_priority.conf", `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act, eft
[role_definition]
g = _, _
[policy_effect]
e = subjectPriority(p.eft) || deny
[matchers]
m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act
`)
	unbalanced := writeFile(t, "unbalanced.conf", `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
[role_definition]
g = _, _
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = g(r.sub, p.sub) && (r.obj == p.obj && \
    r.act == p.act
`)
	for _, c := range []struct {
		name, policy string
		model        string
		want         []string
	}{
		{"self-loop", "p, admin, data1, read\ng, alice, admin\ng, admin, admin\n", "", []string{"a role linked to itself (line 3"}},
		{"cycle", "p, a, data1, read\ng, alice, a\ng, a, b\n  # indented comment\ng, b, a\n", "", []string{"a cycle of role links (lines 3, 5: a -> b -> a)"}},
		{"colon", "p, editor, notes:draft, write\ng, alice, editor\n", "", []string{"containing ':' (line 1)"}},
		{"expression", "p, r.sub.Age > 18, data1, read\n", "", []string{"matcher expressions", "give --model"}},
		{"subjectPriority", "p, alice, data1, read, allow\n", subjectPriority, []string{"subject priority effects"}},
		{"unbalanced", "p, alice, data1, read\n", unbalanced, []string{"unbalanced parenthesis"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := newKey()
			args := []string{"import", "casbin", "--policy", writeFile(t, "p.csv", c.policy)}
			if c.model != "" {
				args = append(args, "--model", c.model)
			}
			r := must(t, 2, s.url, k, args...)
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr %q, want %q", r.stderr, w)
				}
			}
			if c.name == "unbalanced" && strings.Contains(r.stderr, "ABAC") || c.name == "subjectPriority" && strings.Contains(r.stderr, "deny effects") {
				t.Errorf("refusal names another feature: %q", r.stderr)
			}
			var roles []map[string]string
			jsonOut(t, s.url, k, &roles, "role", "list")
			if len(roles) != 0 {
				t.Errorf("a refused import wrote roles: %v", roles)
			}
		})
	}
	k := newKey()
	must(t, 0, s.url, k, "import", "casbin", "--policy", writeFile(t, "both.csv", "p, alice, data1, read\ng, bob, alice\n"))
	must(t, 0, s.url, k, "check", "alice", "data1:read")
	must(t, 0, s.url, k, "check", "bob", "data1:read")

	var deep strings.Builder
	deep.WriteString("p, r11, data, read\ng, alice, r1\n")
	for i := 1; i < 11; i++ {
		fmt.Fprintf(&deep, "g, r%d, r%d\n", i, i+1)
	}
	k = newKey()
	r := must(t, 0, s.url, k, "import", "casbin", "--policy", writeFile(t, "deep.csv", deep.String()))
	if !strings.Contains(r.stderr, "warning: role chains longer than Casbin's default of 10 links") || !strings.Contains(r.stderr, "alice (data:read, 11 links away)") {
		t.Errorf("stderr %q", r.stderr)
	}
	must(t, 0, s.url, k, "check", "alice", "data:read")
}
