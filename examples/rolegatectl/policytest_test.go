package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// offline runs rolegatectl with no server, no key and no environment.
func offline(args ...string) result {
	var out, errb bytes.Buffer
	code := run(args, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

const testCases = `cases:
  - {user: alice, permission: edit, allow: true}
  - {user: alice, permission: edit, scope: org-2, allow: true}
  - {user: jack, permission: edit, scope: org-2, allow: false}
  - {user: intern, permission: notes.delete, allow: false, name: "interns never delete"}
  - {user: intern, permission: read, allow: true}
memberships:
  - {user: intern, role: viewer}
`

// TestPolicyTestExitCodes: exit 0 when every case holds (the policy's
// own tests and a cases file, with no server and no key), 1 when one does
// not, 2 for bad input naming the file and line.
func TestPolicyTestExitCodes(t *testing.T) {
	policy := "example-policy.yaml"
	cases := writeFile(t, "cases.yaml", testCases)
	if r := offline("policy", "test", "-f", policy, "--cases", cases); r.code != 0 || !strings.Contains(r.stdout, "10 case(s): 10 passed, 0 failed") {
		t.Errorf("all hold: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	wrongCases := writeFile(t, "wrong-cases.yaml", strings.Replace(testCases, "{user: intern, permission: notes.delete, allow: false", "{user: jack, permission: notes.delete, scope: org-7, allow: false", 1))
	r := offline("policy", "test", "-f", policy, "--cases", wrongCases)
	if r.code != 1 {
		t.Fatalf("a wrong case: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The failure names the case, where it is, the answer and why, in one
	// screen.
	for _, want := range []string{
		"FAIL " + wrongCases + ":5: interns never delete",
		"user: jack  permission: notes.delete  scope: org-7",
		"expected: deny  got: allow",
		"why: jack is a member of moderator in org-7, which is granted notes.delete",
		"10 case(s): 9 passed, 1 failed",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if n := strings.Count(r.stdout, "\n"); n > 24 {
		t.Errorf("a failure takes %d lines:\n%s", n, r.stdout)
	}

	deep := "version: 1\nroles:\n"
	for i := range 40 {
		deep += fmt.Sprintf("  - name: r%02d\n    inherits: [r%02d]\n", i, i+1)
	}
	deep += "  - name: r40\n    permissions: [p]\ntests:\n  - {user: u, permission: p, allow: false}\n"
	for _, tc := range []struct {
		name, policy, cases, want string
	}{
		{"unknown key in a case", policy, "cases:\n  - {user: a, permission: p, allow: true}\n  - {user: a, permision: p, allow: true}\n", `cases.yaml:3: invalid cases: unknown field "permision"`},
		{"invalid name", policy, "cases:\n  - {user: a, permission: 'p/q', allow: true}\n", "cases.yaml:2: invalid cases: cases[0]: invalid name"},
		{"case without allow", policy, "cases:\n  - {user: a, permission: p}\n", "cases.yaml:2: invalid cases: cases[0]: allow: missing"},
		{"fixture of an unknown role", policy, "cases: []\nmemberships:\n  - {user: a, role: boss}\n", `cases.yaml:3: invalid cases: memberships[0]: role "boss" is not defined by the policy`},
		{"policy unknown key", writeFile(t, "p.yaml", "version: 1\nroles:\n  - name: a\n    permisions: [x]\ntests: []\n"), "", `p.yaml:4: invalid policy: unknown field "permisions"`},
		{"policy test without allow", writeFile(t, "p.yaml", "version: 1\nroles: []\ntests:\n  - {user: a, permission: p}\n"), "", "p.yaml:4: invalid policy: tests[0]: allow: missing"},
		{"policy that does not load", writeFile(t, "deep.yaml", deep), "", `deep.yaml:67: the policy does not load: role "r32" (add_inheritance): inheritance past a limit`},
		{"no cases", writeFile(t, "p.yaml", "version: 1\nroles: []\n"), "", "no cases"},
		{"missing file", "nowhere.yaml", "", "nowhere.yaml"},
	} {
		args := []string{"policy", "test", "-f", tc.policy}
		if tc.cases != "" {
			args = append(args, "--cases", writeFile(t, "cases.yaml", tc.cases))
		}
		r := offline(args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q, want 2 and %q", tc.name, r.code, r.stderr, tc.want)
		}
	}
}

// TestPolicyTestJUnit: --junit writes JUnit XML that parses, with a test
// case per case and a failure for each that fails.
func TestPolicyTestJUnit(t *testing.T) {
	cases := writeFile(t, "cases.yaml", strings.Replace(testCases, "scope: org-2, allow: false", "scope: org-2, allow: true", 1))
	report := writeFile(t, "report.xml", "")
	r := offline("policy", "test", "-f", "example-policy.yaml", "--cases", cases, "--junit", report)
	if r.code != 1 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Suites   []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
				Line      int    `xml:"line,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(readFileT(t, report)), &doc); err != nil {
		t.Fatalf("the report does not parse: %v\n%s", err, readFileT(t, report))
	}
	if doc.Tests != 10 || doc.Failures != 1 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 10 || doc.Suites[0].Failures != 1 {
		t.Fatalf("report: %+v", doc)
	}
	failed := 0
	for _, c := range doc.Suites[0].Cases {
		if c.Failure == nil {
			continue
		}
		failed++
		if c.Name != "jack may edit in org-2" || c.Line != 4 || c.Classname != cases ||
			c.Failure.Message != "expected allow, got deny" || !strings.Contains(c.Failure.Text, "why: jack holds no membership that counts in org-2") {
			t.Errorf("failure: %+v", c)
		}
	}
	if failed != 1 {
		t.Errorf("%d failures in the report", failed)
	}
}

// thousandCases is a policy of 50 roles (each inheriting the next) and 200
// users with global and scoped memberships, and 1,000 cases with their
// answers worked out here.
func thousandCases() (policy, cases string) {
	var p, c strings.Builder
	p.WriteString("version: 1\nroles:\n")
	for r := range 50 {
		fmt.Fprintf(&p, "  - name: role%02d\n    permissions: [perm%02d]\n", r, r)
		if r%5 != 4 {
			fmt.Fprintf(&p, "    inherits: [role%02d]\n", r+1)
		}
	}
	p.WriteString("memberships:\n")
	// user u holds role (u % 50), globally when u is even, in scope
	// org-(u%3) when odd: role r holds perm r up to the end of its run of
	// five (r to r|4 in fives: 0-4, 5-9, ...).
	for u := range 200 {
		if u%2 == 0 {
			fmt.Fprintf(&p, "  - {user: user%03d, role: role%02d}\n", u, u%50)
		} else {
			fmt.Fprintf(&p, "  - {user: user%03d, role: role%02d, scope: org-%d}\n", u, u%50, u%3)
		}
	}
	holds := func(u, perm int, scope string) bool {
		r := u % 50
		if perm < r || perm/5 != r/5 {
			return false
		}
		return u%2 == 0 || scope == fmt.Sprintf("org-%d", u%3)
	}
	c.WriteString("cases:\n")
	for i := range 1000 {
		u, perm := (i*7)%200, (i*13)%50
		scope := []string{"", "org-0", "org-1", "org-2"}[i%4]
		// Most cases ask what the user could plausibly hold.
		if i%3 != 0 {
			perm = u%50 + i%5
			if perm >= 50 {
				perm = 49
			}
		}
		line := fmt.Sprintf("  - {user: user%03d, permission: perm%02d, allow: %v", u, perm, holds(u, perm, scope))
		if scope != "" {
			line += ", scope: " + scope
		}
		c.WriteString(line + "}\n")
	}
	return p.String(), c.String()
}

// TestPolicyTest1000Cases: 1,000 cases, policy loaded into a fresh store
// and every case checked, in under a second (the bound; the
// figure is in docs/performance.md).
//
//	(cd examples/rolegatectl && go test -count=1 -run TestPolicyTest1000Cases -v .)
func TestPolicyTest1000Cases(t *testing.T) {
	policy, cases := thousandCases()
	pf, cf := writeFile(t, "p.yaml", policy), writeFile(t, "c.yaml", cases)
	offline("policy", "test", "-f", pf, "--cases", cf) // warm the process: first use of SQLite and the YAML reader
	best := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		r := offline("policy", "test", "-f", pf, "--cases", cf)
		el := time.Since(start)
		if r.code != 0 || !strings.Contains(r.stdout, "1000 case(s): 1000 passed") {
			t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		best = min(best, el)
	}
	t.Logf("1,000 cases: %v (best of 3, whole command: parse, open, apply, check)", best)
	if best > time.Second {
		t.Errorf("1,000 cases took %v, want under 1 s", best)
	}
}

// BenchmarkPolicyTest1000Cases times the whole command on 1,000 cases.
//
//	(cd examples/rolegatectl && go test -run '^$' -bench PolicyTest1000Cases -benchmem .)
func BenchmarkPolicyTest1000Cases(b *testing.B) {
	policy, cases := thousandCases()
	pf, cf := writeFile(b, "p.yaml", policy), writeFile(b, "c.yaml", cases)
	for range b.N {
		if r := offline("policy", "test", "-f", pf, "--cases", cf); r.code != 0 {
			b.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}
}

func readFileT(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
