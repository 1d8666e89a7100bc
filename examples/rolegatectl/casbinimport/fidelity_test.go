package casbinimport

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz"
)

func importText(t *testing.T, text string) (Result, error) {
	t.Helper()
	rules, err := ReadCSV(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return Import(rules, nil)
}

func refusedWith(t *testing.T, text string, want ...string) {
	t.Helper()
	_, err := importText(t, text)
	var ref *Refusal
	if !errors.As(err, &ref) {
		t.Fatalf("%q: %v, want a refusal", text, err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q: %v, want %q", text, err, w)
		}
	}
}

// TestSubjectThatIsARole: a name with p lines of its own that is also a
// role (g, bob, alice) keeps its own grants as a user, and the user
// linked to it gets them too.
func TestSubjectThatIsARole(t *testing.T) {
	res, err := importText(t, "p, alice, data1, read\ng, bob, alice\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []authz.PolicyMembership{{User: "alice", Role: "alice"}, {User: "bob", Role: "alice"}}
	if !reflect.DeepEqual(res.Policy.Memberships, want) {
		t.Errorf("memberships %+v", res.Policy.Memberships)
	}
	if len(res.Policy.Roles) != 1 || !reflect.DeepEqual(res.Policy.Roles[0].Permissions, []string{"data1:read"}) {
		t.Errorf("roles %+v", res.Policy.Roles)
	}
	// With domains alike, in the domain's scope.
	res, err = importText(t, "p, alice, d1, data1, read\ng, bob, alice, d1\n")
	if err != nil {
		t.Fatal(err)
	}
	want = []authz.PolicyMembership{{User: "alice", Role: "alice@d1", Scope: "d1"}, {User: "bob", Role: "alice@d1", Scope: "d1"}}
	if !reflect.DeepEqual(res.Policy.Memberships, want) {
		t.Errorf("memberships %+v", res.Policy.Memberships)
	}
}

// TestRoleLoopsRefused: a self-loop and a cycle, legal in Casbin, are
// refused naming their lines.
func TestRoleLoopsRefused(t *testing.T) {
	refusedWith(t, "p, a, o, read\ng, u, a\ng, a, a\n", "a role linked to itself (line 3", "may not loop")
	refusedWith(t, "p, a, o, read\ng, u, a\n# a comment\ng, a, b\ng, b, c\ng, c, a\n", "a cycle of role links (lines 4, 5, 6: a -> b -> c -> a)")
	refusedWith(t, "p, a, d1, o, read\ng, u, a, d1\ng, a, b, d1\ng, b, a, d1\n", "lines 3, 4: a (domain d1) -> b (domain d1) -> a (domain d1)")
	// The same names in two domains are not a loop.
	if _, err := importText(t, "p, a, d1, o, read\ng, u, a, d1\ng, a, b, d1\ng, b, a, d2\n"); err != nil {
		t.Errorf("links in two domains: %v", err)
	}
}

// TestDeepChainWarns: a user reaching a grant only through more links
// than Casbin follows (10) is named in a warning; a chain of exactly 10
// links warns of nothing.
func TestDeepChainWarns(t *testing.T) {
	chain := func(links int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "p, r%d, data, read\np, r1, near, read\ng, alice, r1\ng, carol, r%d\n", links, links)
		for i := 1; i < links; i++ {
			fmt.Fprintf(&b, "g, r%d, r%d\n", i, i+1)
		}
		return b.String()
	}
	res, err := importText(t, chain(10))
	if err != nil || len(res.Warnings) != 0 {
		t.Errorf("10 links: %v %q", err, res.Warnings)
	}
	res, err = importText(t, chain(11))
	if err != nil || len(res.Warnings) != 1 {
		t.Fatalf("11 links: %v %q", err, res.Warnings)
	}
	w := res.Warnings[0]
	if !strings.Contains(w, "1 user(s) gain access that Casbin would deny") || !strings.Contains(w, "alice (data:read, 11 links away)") || strings.Contains(w, "carol") {
		t.Errorf("warning %q", w)
	}
}

// TestColonInObjectOrActionRefused: "a:b" + "c" and "a" + "b:c" would be
// one permission name; a one-part permission may hold a colon.
func TestColonInObjectOrActionRefused(t *testing.T) {
	refusedWith(t, "p, editor, notes, write\np, editor, notes:x, write\ng, alice, editor\np, editor, notes, read:all\n", "containing ':' (lines 2, 4)")
	refusedWith(t, "p, admin, d1, data:1, read\ng, alice, admin, d1\n", "containing ':' (line 1)")
	if _, err := importText(t, "p, editor, notes:write\ng, alice, editor\n"); err != nil {
		t.Errorf("one-part permission: %v", err)
	}
}

// TestIndentedComments: a # after white space starts a comment, as in
// Casbin's file adapter.
func TestIndentedComments(t *testing.T) {
	rules, err := ReadCSV(strings.NewReader("  # indented\np, a, o, read\n\t# tab\n   \n#x, y\ng, u, a\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 2 || rules[0].Line != 2 || rules[1].Line != 6 {
		t.Errorf("rules %+v", rules)
	}
}

// TestExpressionsNeedTheModel: a policy whose fields are matcher
// expressions (ABAC rules, in) is refused without --model, instead of
// importing roles named after expressions.
func TestExpressionsNeedTheModel(t *testing.T) {
	refusedWith(t, "p, r.sub.Age > 18, data1, read\np, r.sub.Age < 60 && r.sub.Age > 18, data2, write\n", "matcher expressions", "lines 1, 2", "give --model")
	refusedWith(t, "p, alice, r.obj in ('data1', 'data2'), read\n", "matcher expressions", "line 1")
	refusedWith(t, "p, alice, data1, eval(p.sub_rule)\n", "matcher expressions")
	// Names that only look like parts of one are names.
	if _, err := importText(t, "p, r.example.org, data, read\np, p.obj-team, data, write\n"); err != nil {
		t.Errorf("names with dots: %v", err)
	}
}

// nestedModel is a model whose matcher nests depth parentheses over as
// many continuation lines, with conjunctions inside.
func nestedModel(depth int) string {
	var b strings.Builder
	b.WriteString(rbacSections + "m = \\\n")
	for i := 0; i < depth; i++ {
		b.WriteString("  ( \\\n")
	}
	b.WriteString("  g(r.sub, p.sub) && (r.obj == p.obj && (r.act == p.act)) \\\n")
	for i := 0; i < depth; i++ {
		b.WriteString("  ) \\\n")
	}
	b.WriteString("\n")
	return b.String()
}

// TestModelReaderLinear: a 160 KB matcher nested over continuation lines
// reads (and is recognised) in well under a second; it took 15.5 s when
// each line was joined to all before it and each parenthesis rescanned.
func TestModelReaderLinear(t *testing.T) {
	text := nestedModel(160 << 10 / 10)
	if len(text) < 160<<10 {
		t.Fatalf("model of %d bytes", len(text))
	}
	start := time.Now()
	m, err := ReadModel(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	sh, err := m.Shape()
	took := time.Since(start)
	if err != nil || !slices.Equal(sh.Perm, []int{1, 2}) {
		t.Fatalf("%+v %v", sh, err)
	}
	t.Logf("%d KB nested matcher: %v", len(text)>>10, took)
	if took > 300*time.Millisecond {
		t.Errorf("%d KB model read in %v", len(text)>>10, took)
	}
}
