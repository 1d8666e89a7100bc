package yamlpos

import "testing"

func TestLineAndHas(t *testing.T) {
	d := Parse([]byte("version: 1\ncases:\n  - {user: a, allow: true}\n  - user: b\n    permission: p\n  - &x\n    user: c\nroles: []\n"))
	for _, tc := range []struct {
		path []any
		line int
		has  bool
	}{
		{[]any{"cases"}, 3, true},
		{[]any{"cases", 0}, 3, true},
		{[]any{"cases", 1}, 4, true},
		{[]any{"cases", 1, "permission"}, 5, true},
		{[]any{"cases", 0, "allow"}, 3, true},
		{[]any{"cases", 1, "allow"}, 4, false},
		{[]any{"cases", 2, "user"}, 7, true},
		{[]any{"cases", 9}, 3, false},
		{[]any{"roles"}, 8, true},
		{[]any{"memberships"}, 0, false},
	} {
		if got := d.Line(tc.path...); got != tc.line {
			t.Errorf("Line(%v) = %d, want %d", tc.path, got, tc.line)
		}
		if got := d.Has(tc.path...); got != tc.has {
			t.Errorf("Has(%v) = %v, want %v", tc.path, got, tc.has)
		}
	}
	if (Doc{}).Line("x") != 0 || Parse([]byte("a: [")).Has("a") {
		t.Error("a document that does not parse finds something")
	}
}
