package authz

import (
	"errors"
	"strings"
	"testing"
)

// TestPolicyErrorsNameTheLine: a refused policy or cases file names the
// line of the entry at fault, whether the decoder or Validate refuses it.
func TestPolicyErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		cases     bool
		line      int
		msg       string
	}{
		{"unknown field", "version: 1\nroles:\n  - name: a\n    permision: [x]\n", false, 4, `unknown field "permision"`},
		{"bad permission", "version: 1\nroles:\n  - name: a\n    permissions:\n      - ok\n      - ' x'\n", false, 6, `role "a"`},
		{"twice", "version: 1\nroles:\n  - name: a\n  - name: a\n", false, 4, "appears twice"},
		{"unknown parent", "version: 1\nroles:\n  - name: a\n  - name: b\n    inherits: [c]\n", false, 5, `inherits "c"`},
		{"member of unknown", "version: 1\nroles: []\nmemberships:\n  - {user: u, role: r}\n", false, 4, "memberships[0]"},
		{"test without allow", "version: 1\nroles: []\ntests:\n  - {user: u, permission: p}\n", false, 4, "allow: missing"},
		{"test with a bad name", "version: 1\nroles: []\ntests:\n  - {user: u, permission: p, allow: true}\n  - {user: 'a/b', permission: p, allow: true}\n", false, 5, "tests[1]"},
		{"no version", "roles: []\n", false, 1, "version: missing"},
		{"case unknown key", "cases:\n  - {user: a, permission: p, allow: true}\n  - {user: a, permission: p, alow: true}\n", true, 3, `unknown field "alow"`},
		{"case without allow", "cases:\n  - user: a\n    permission: p\n", true, 2, "cases[0]: allow: missing"},
		{"case bad scope", "cases:\n  - {user: a, permission: p, scope: ' s', allow: true}\n", true, 2, "scope"},
		{"no cases key", "memberships: []\n", true, 1, "cases: missing"},
		{"cases not yaml", "cases: [\n", true, 1, ""},
		{"case member bad name", "cases: []\nmemberships:\n  - {user: a, role: r}\n  - {user: a, role: 'r/s'}\n", true, 4, "memberships[1]"},
	} {
		var err error
		kind := ErrInvalidPolicy
		if tc.cases {
			_, err = ParsePolicyCases([]byte(tc.src))
			kind = ErrInvalidCases
		} else {
			_, err = ParsePolicy([]byte(tc.src))
		}
		var fe *PolicyFileError
		if !errors.As(err, &fe) || !errors.Is(err, kind) {
			t.Errorf("%s: err = %v, want a *PolicyFileError of %v", tc.name, err, kind)
			continue
		}
		if fe.Line != tc.line || !strings.Contains(fe.Msg, tc.msg) {
			t.Errorf("%s: line %d %q, want line %d and %q", tc.name, fe.Line, fe.Msg, tc.line, tc.msg)
		}
	}
}

// TestPolicyCases: cases keep their file order and lines, the policy's
// tests too; fixture memberships are added to a policy and must name its
// roles.
func TestPolicyCases(t *testing.T) {
	cs, err := ParsePolicyCases([]byte("cases:\n  - {user: b, permission: p, allow: false}\n  - user: a\n    permission: p\n    scope: s\n    allow: true\n    name: a reads\nmemberships:\n  - {user: a, role: r, scope: s}\n  - {user: a, role: gone}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cs.Cases) != 2 || cs.Cases[0].User != "b" || cs.Cases[1].Line != 3 || cs.Cases[1].Title() != "a reads" || cs.Cases[0].Title() != "b may not p" {
		t.Errorf("cases = %+v", cs.Cases)
	}
	p, err := ParsePolicy([]byte("version: 1\nroles:\n  - {name: r, permissions: [p]}\ntests:\n  - {user: a, permission: p, scope: s, allow: true}\n"))
	if err != nil || len(p.Tests) != 1 || p.Tests[0].Line != 5 || p.ManageMemberships {
		t.Fatalf("policy = %+v, %v", p, err)
	}
	_, err = cs.AddTo(p)
	var fe *PolicyFileError
	if !errors.As(err, &fe) || fe.Line != 10 || !strings.Contains(fe.Msg, `role "gone" is not defined`) {
		t.Errorf("AddTo with an unknown role: %v", err)
	}
	cs.Memberships = cs.Memberships[:1]
	q, err := cs.AddTo(p)
	if err != nil || !q.ManageMemberships || len(q.Memberships) != 1 || len(p.Memberships) != 0 {
		t.Errorf("AddTo = %+v, %v (p = %+v)", q, err, p)
	}
	// A policy with tests marshals them back.
	b, err := MarshalPolicy(p)
	if err != nil || !strings.Contains(string(b), "tests:\n  - user: a\n    permission: p\n    scope: s\n    allow: true\n") {
		t.Errorf("marshal: %v\n%s", err, b)
	}
	if back, err := ParsePolicy(b); err != nil || len(back.Tests) != 1 {
		t.Errorf("parse of the marshalled policy: %+v, %v", back, err)
	}
}
