package authz

import (
	"errors"
	"fmt"

	"github.com/rolegate/rolegate/authz/internal/yamlpos"
)

// ErrInvalidCases: a cases file that cannot be read (bad syntax, an
// unknown field, a bad name, a case without allow).
var ErrInvalidCases = errors.New("invalid cases")

// PolicyCase is one decision a policy must give: whether User holds
// Permission, in Scope when it is set (a global or scoped membership
// counts) or globally when it is not (only global memberships count), as
// UserHasPermission and UserHasPermissionIn answer.
type PolicyCase struct {
	// Name says what the case is about; it names the case in reports
	// (empty: one is made of the fields).
	Name       string `json:"name,omitempty" yaml:"name,omitempty"`
	User       string `json:"user" yaml:"user"`
	Permission string `json:"permission" yaml:"permission"`
	Scope      string `json:"scope,omitempty" yaml:"scope,omitempty"`
	// Allow is the expected answer; a file must write it (a case without
	// allow is refused rather than read as a deny).
	Allow bool `json:"allow" yaml:"allow"`
	// Line is the case's line in its file (0 when not from a file).
	Line int `json:"-" yaml:"-"`
}

// Title is the case's name, or one made of its fields.
func (tc PolicyCase) Title() string {
	if tc.Name != "" {
		return tc.Name
	}
	verb := "may not"
	if tc.Allow {
		verb = "may"
	}
	s := fmt.Sprintf("%s %s %s", tc.User, verb, tc.Permission)
	if tc.Scope != "" {
		s += " in " + tc.Scope
	}
	return s
}

func (tc PolicyCase) validate() error {
	kv := []string{"user", tc.User, "permission", tc.Permission}
	if tc.Scope != "" {
		kv = append(kv, "scope", tc.Scope)
	}
	return checkNames(kv...)
}

// PolicyCases is a cases file:
//
//	cases:
//	  - {user: alice, permission: edit, allow: true}
//	  - {user: alice, permission: edit, scope: org-2, allow: false}
//	  - {user: intern, permission: notes.delete, allow: false, name: "interns never delete"}
//	memberships:          # optional: held in the test store besides the policy's
//	  - {user: intern, role: viewer}
//
// Memberships let a policy that leaves memberships to run time (no
// memberships key) be tested with members of its roles.
type PolicyCases struct {
	Cases       []PolicyCase       `json:"cases" yaml:"cases"`
	Memberships []PolicyMembership `json:"memberships,omitempty" yaml:"memberships,omitempty"`
	// memberLines are the memberships' lines in the file.
	memberLines []int
}

// ParsePolicyCases reads a cases file (YAML or JSON). Unknown fields,
// invalid names and cases without allow are refused with a
// *PolicyFileError (ErrInvalidCases) naming the line.
func ParsePolicyCases(data []byte) (PolicyCases, error) {
	var cs PolicyCases
	if err := decodeStrict(data, &cs, ErrInvalidCases); err != nil {
		return PolicyCases{}, err
	}
	doc := yamlpos.Parse(data)
	if !doc.Has("cases") {
		return PolicyCases{}, &PolicyFileError{Line: 1, Msg: "cases: missing", Err: ErrInvalidCases}
	}
	if err := readCases(doc, "cases", cs.Cases, ErrInvalidCases); err != nil {
		return PolicyCases{}, err
	}
	for i, tc := range cs.Cases {
		if err := tc.validate(); err != nil {
			return PolicyCases{}, &PolicyFileError{Line: tc.Line, Path: []any{"cases", i}, Msg: fmt.Sprintf("cases[%d]: %v", i, err), Err: ErrInvalidCases}
		}
	}
	cs.memberLines = make([]int, len(cs.Memberships))
	for i, m := range cs.Memberships {
		cs.memberLines[i] = doc.Line("memberships", i)
		if err := m.checkNames(); err != nil {
			return PolicyCases{}, &PolicyFileError{Line: cs.memberLines[i], Path: []any{"memberships", i}, Msg: fmt.Sprintf("memberships[%d]: %v", i, err), Err: ErrInvalidCases}
		}
	}
	return cs, nil
}

// readCases gives each case its line, and refuses one without allow.
func readCases(doc yamlpos.Doc, key string, cases []PolicyCase, kind error) error {
	for i := range cases {
		cases[i].Line = doc.Line(key, i)
		if doc.Has(key, i) && !doc.Has(key, i, "allow") {
			return &PolicyFileError{Line: cases[i].Line, Path: []any{key, i}, Msg: fmt.Sprintf("%s[%d]: allow: missing (write allow: true or allow: false)", key, i), Err: kind}
		}
	}
	return nil
}

// AddTo returns p with the cases' memberships added (p then manages
// memberships), refusing one whose role p does not define or whose names
// are invalid, with the line of the membership in the cases file.
func (cs PolicyCases) AddTo(p Policy) (Policy, error) {
	if len(cs.Memberships) == 0 {
		return p, nil
	}
	roles := make(map[string]bool, len(p.Roles))
	for _, r := range p.Roles {
		roles[r.Name] = true
	}
	for i, m := range cs.Memberships {
		if err := m.validate(roles); err != nil {
			fe := &PolicyFileError{Path: []any{"memberships", i}, Msg: fmt.Sprintf("memberships[%d]: %v", i, err), Err: ErrInvalidCases}
			if i < len(cs.memberLines) {
				fe.Line = cs.memberLines[i]
			}
			return Policy{}, fe
		}
	}
	p.Memberships = append(append([]PolicyMembership{}, p.Memberships...), cs.Memberships...)
	p.ManageMemberships = true
	p.Normalize()
	return p, nil
}
