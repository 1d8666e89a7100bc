package casbinimport

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/authz"
)

func model(t *testing.T, text string) *Model {
	t.Helper()
	m, err := ReadModel(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const rbacSections = `[request_definition]
r = sub, obj, act

[policy_definition]
p = sub, obj, act

[role_definition]
g = _, _

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
`

// TestModelShapes: the model files of the shapes rolegate expresses are
// recognised, with their fields where the model puts them.
func TestModelShapes(t *testing.T) {
	for name, want := range map[string]Shape{
		"rbac_model.conf":                     {FromModel: true, Fields: 3, Sub: 0, Dom: -1, Perm: []int{1, 2}, Group: -1},
		"rbac_with_hierarchy_model.conf":      {FromModel: true, Fields: 3, Sub: 0, Dom: -1, Perm: []int{1, 2}, Group: -1},
		"rbac_with_resource_roles_model.conf": {FromModel: true, Fields: 3, Sub: 0, Dom: -1, Perm: []int{1, 2}, Group: 1, ResourceRoles: true},
		"rbac_with_domains_model.conf":        {FromModel: true, Fields: 4, Sub: 0, Dom: 1, Perm: []int{2, 3}, Group: -1, Domains: true},
		"rbac_with_deny_model.conf":           {},
	} {
		f, err := os.Open("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ReadModel(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Shape()
		var ref *Refusal
		if want.FromModel && err != nil || !want.FromModel && !errors.As(err, &ref) {
			t.Errorf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
	// A line continued with a backslash, terms in another order and
	// parentheses are the same model.
	m := model(t, rbacSections+"m = (r.act == p.act) && \\\n  g(r.sub, p.sub) && p.obj == r.obj\n")
	if sh, err := m.Shape(); err != nil || !reflect.DeepEqual(sh.Perm, []int{1, 2}) {
		t.Errorf("%+v %v", sh, err)
	}
}

// TestModelRefusals: each thing rolegate cannot express is named.
func TestModelRefusals(t *testing.T) {
	for _, c := range []struct{ model, want string }{
		{strings.Replace(rbacSections, "p.eft == allow))", "p.eft == allow)) && !some(where (p.eft == deny))", 1) + "m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act", "deny effects"},
		{strings.Replace(rbacSections, "some(where (p.eft == allow))", "priority(p.eft) || deny", 1) + "m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act", "priority effects"},
		{rbacSections + "m = g(r.sub, p.sub) && keyMatch2(r.obj, p.obj) && r.act == p.act", "pattern matchers"},
		{rbacSections + "m = g(r.sub, p.sub) && regexMatch(r.obj, p.obj) && r.act == p.act", "pattern matchers"},
		{rbacSections + "m = g(r.sub, p.sub) && globMatch(r.obj, p.obj) && r.act == p.act", "pattern matchers"},
		{rbacSections + "m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act && r.sub.Age > 18", "ABAC conditions"},
		{rbacSections + "m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act || r.obj in ('a')", "the in operator"},
		{rbacSections + "m = g(r.sub, p.sub) && r.obj in ('a', 'b') && r.act == p.act", "the in operator"},
		{rbacSections + "m = g(r.sub, p.sub) && r.obj == p.obj && eval(p.act)", "eval() of conditions"},
		{rbacSections + "m = g(r.sub, p.sub) && r.obj == p.obj || r.act == p.act", "alternatives (||)"},
		{rbacSections + "m = g(r.sub, p.sub) && r.obj == p.obj && r.act != p.act", "comparisons other than =="},
		{rbacSections + "m = g(r.sub, p.sub) && r.obj == p.obj && r.act == \"read\"", "literal values"},
		{rbacSections + "m = g(r.sub, p.sub) && r.obj == p.obj && custom(r.act, p.act)", "the function custom()"},
		// A matcher Casbin cannot compile is named so, not ABAC.
		{rbacSections + "m = g(r.sub, p.sub) && (r.obj == p.obj && r.act == p.act", "unbalanced parenthesis"},
		{rbacSections + "m = g(r.sub, p.sub) && r.obj == p.obj) && r.act == p.act", "unbalanced parenthesis"},
		{rbacSections + "m = g(r.sub, p.sub) && r.obj == 'x && r.act == p.act", "unterminated string literal"},
		{strings.Replace(rbacSections, "some(where (p.eft == allow))", "subjectPriority(p.eft) || deny", 1) + "m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act", "subject priority effects"},
		{strings.Replace(rbacSections, "g = _, _", "g = _, _, (_, _)", 1) + "m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act", "time-windowed"},
		{strings.Replace(rbacSections, "p = sub, obj, act", "p = sub, obj, act\np2 = sub, act", 1) + "m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act", "several policy"},
		{rbacSections + "m = r.sub == p.sub && g(r.obj, p.obj) && r.act == p.act", "roles over a field other than the subject"},
		{rbacSections + "m = r.sub == p.sub && r.obj == p.obj && r.act == p.act", "without g(r.sub, p.sub)"},
	} {
		_, err := model(t, c.model).Shape()
		var ref *Refusal
		if !errors.As(err, &ref) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.model[strings.Index(c.model, "[matchers]"):], err, c.want)
		}
	}
	if _, err := ReadModel(strings.NewReader("[request_definition]\nr = sub\n")); err == nil {
		t.Error("a model without its sections read")
	}
}

// TestDomainFixes: a direct grant in a domain makes the user a member in
// that domain; role-to-role links in a domain inherit; literal * and
// time windows are refused; a domain grant where no g line has a domain
// says what it is.
func TestDomainFixes(t *testing.T) {
	res := convertFile(t, "rbac_with_hierarchy_with_domains_policy.csv")
	wantM := []authz.PolicyMembership{
		{User: "alice", Role: "alice@domain1", Scope: "domain1"},
		{User: "alice", Role: "alice@domain2", Scope: "domain2"},
		{User: "alice", Role: "role:global_admin@domain1", Scope: "domain1"},
		// Casbin's g(x, x): a subject of p lines holds its grants.
		{User: "role:reader", Role: "role:reader@domain1", Scope: "domain1"},
		{User: "role:writer", Role: "role:writer@domain1", Scope: "domain1"},
	}
	if !reflect.DeepEqual(res.Policy.Memberships, wantM) || len(res.Skipped) != 0 {
		t.Errorf("memberships %+v, skipped %+v", res.Policy.Memberships, res.Skipped)
	}
	for _, r := range res.Policy.Roles {
		if r.Name == "role:global_admin@domain1" && !reflect.DeepEqual(r.Inherits, []string{"role:reader@domain1", "role:writer@domain1"}) {
			t.Errorf("%+v", r)
		}
	}
	for text, want := range map[string]string{
		"p, admin, domain1, data1, read\ng, alice, admin, *\n":                   "literal *",
		"p, *, pen3_group, GET\n":                                                "literal *",
		"p, a, d, read\ng, alice, a, _, 9999-12-30 00:00:00\n":                   "time-windowed",
		"p, a, domain1, d, read\ng, alice, a, domain1, 0000-01-01 00:00:00, _\n": "time-windowed",
		"p, a, d, read\np2, a, read\n":                                           "several policy",
		"p, a, d, read\ng3, a, b\n":                                              "role definitions",
		"p, a, d, read, deny\n":                                                  "deny effects",
	} {
		rules, _ := ReadCSV(strings.NewReader(text))
		var ref *Refusal
		if _, err := Import(rules, nil); !errors.As(err, &ref) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
	rules, _ := ReadCSV(strings.NewReader("p, admin, domain1, data1, read\ng, alice, admin\n"))
	res, err := Import(rules, nil)
	if err != nil || len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, "no g line of this policy carries a domain") {
		t.Errorf("%v %+v", err, res.Skipped)
	}
	// Two (role, domain) pairs that would share a rolegate name.
	rules, _ = ReadCSV(strings.NewReader("p, a@b, c, o, read\np, a, b@c, o, write\ng, u, a@b, c\n"))
	res, err = Import(rules, nil)
	if err != nil || len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, "same rolegate role") {
		t.Errorf("%v %+v", err, res.Skipped)
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{"plain é": "plain é", "a\nb": `a\nb`, "\x1b[2J": `\x1b[2J`, "r\u202eevil": `r\u202eevil`, "\xff": `\xff`, `a\b`: `a\\b`} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}
