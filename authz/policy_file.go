package authz

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/rolegate/rolegate/authz/internal/yamlpos"
)

// ErrInvalidPolicy: a policy file or value that cannot be applied (bad
// syntax, an unknown field, a bad name, a role defined twice, an
// inheritance or membership naming a role the policy does not define).
var ErrInvalidPolicy = errors.New("invalid policy")

// PolicyFileError is a refused policy (ErrInvalidPolicy) or cases file
// (ErrInvalidCases), with the line of the entry at fault when the error
// comes from a file.
type PolicyFileError struct {
	// Line is the line (from 1) of the entry at fault; 0 when none can be
	// named (a value built in Go, an empty file).
	Line int
	// Path is the entry at fault: keys and indexes from the top, such as
	// ["roles", 2, "permissions", 0]; nil for the whole file.
	Path []any
	// Msg says what is wrong, naming the entry ("roles[2]: ...").
	Msg string
	// Err is ErrInvalidPolicy or ErrInvalidCases.
	Err error
}

func (e *PolicyFileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%v: line %d: %s", e.Err, e.Line, e.Msg)
	}
	return fmt.Sprintf("%v: %s", e.Err, e.Msg)
}

func (e *PolicyFileError) Unwrap() error { return e.Err }

// invalidAt is an ErrInvalidPolicy of the entry at path.
func invalidAt(path []any, format string, a ...any) error {
	return &PolicyFileError{Path: path, Msg: fmt.Sprintf(format, a...), Err: ErrInvalidPolicy}
}

// locate gives a located error the line of its path in doc.
func locate(err error, doc yamlpos.Doc) error {
	var fe *PolicyFileError
	if errors.As(err, &fe) && fe.Line == 0 && fe.Path != nil {
		fe.Line = doc.Line(fe.Path...)
	}
	return err
}

// decodeStrict decodes a YAML (or JSON) file into v, refusing unknown
// fields; an error is a *PolicyFileError of kind with the decoder's line.
func decodeStrict(data []byte, v any, kind error) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return &PolicyFileError{Msg: "the file is empty", Err: kind}
	}
	err := yaml.UnmarshalWithOptions(data, v, yaml.Strict(), yaml.DisallowUnknownField())
	if err == nil {
		return nil
	}
	fe := &PolicyFileError{Msg: yaml.FormatError(err, false, false), Err: kind}
	var ye yaml.Error
	if errors.As(err, &ye) {
		fe.Msg = ye.GetMessage()
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			fe.Line = tk.Position.Line
		}
	}
	return fe
}

// ParsePolicy reads a policy file: YAML (or JSON, which is YAML too) in
// the format of policy.schema.json, beside rolegatectl:
//
//	version: 1
//	roles:
//	  - name: viewer
//	    description: Reads notes
//	    permissions: [read]
//	  - name: editor
//	    permissions: [edit]
//	    inherits: [viewer]
//	  - name: contractor
//	    timed_permissions:  # grants with time bounds (from, until: RFC 3339)
//	      - {name: deploy, until: 2030-01-11T18:00:00Z}
//	memberships:          # optional: without it, memberships are left alone
//	  - {user: alice, role: editor}
//	  - {user: bob, role: viewer, scope: org-42}
//	  - {user: carol, role: editor, from: 2030-01-14T09:00:00Z, until: 2030-01-18T18:00:00Z}
//	tests:                # optional: decisions the policy must give
//	  - {user: alice, permission: read, allow: true}
//	  - {user: bob, permission: edit, scope: org-42, allow: false}
//
// Unknown fields are refused (a typo must not silently drop a grant). An
// error is a *PolicyFileError naming the line at fault.
func ParsePolicy(data []byte) (Policy, error) {
	var p Policy
	if err := decodeStrict(data, &p, ErrInvalidPolicy); err != nil {
		return Policy{}, err
	}
	doc := yamlpos.Parse(data)
	if doc.Has("memberships") {
		p.ManageMemberships = true
		if p.Memberships == nil {
			p.Memberships = []PolicyMembership{}
		}
	}
	if p.Version == 0 {
		return Policy{}, &PolicyFileError{Line: 1, Msg: fmt.Sprintf("version: missing (write version: %d)", PolicyVersion), Err: ErrInvalidPolicy}
	}
	if err := readCases(doc, "tests", p.Tests, ErrInvalidPolicy); err != nil {
		return Policy{}, err
	}
	if err := readTimes(doc, p); err != nil {
		return Policy{}, err
	}
	if err := p.Validate(); err != nil {
		return Policy{}, locate(err, doc)
	}
	p.Normalize()
	return p, nil
}

// readTimes refuses a from or until that the decoder read as no time (a
// value that is not one, such as "Friday", or null): unnoticed, it would
// make a bounded membership or grant one for good.
func readTimes(doc yamlpos.Doc, p Policy) error {
	check := func(t time.Time, path ...any) error {
		if t.IsZero() && doc.Has(path...) {
			return &PolicyFileError{Line: doc.Line(path...), Path: path,
				Msg: fmt.Sprintf("%s: must be a time in RFC 3339 (2030-01-11T18:00:00Z)", pathString(path)), Err: ErrInvalidPolicy}
		}
		return nil
	}
	for i, m := range p.Memberships {
		if err := check(m.From, "memberships", i, "from"); err != nil {
			return err
		}
		if err := check(m.Until, "memberships", i, "until"); err != nil {
			return err
		}
	}
	for i, r := range p.Roles {
		for j, g := range r.TimedPermissions {
			if err := check(g.From, "roles", i, "timed_permissions", j, "from"); err != nil {
				return err
			}
			if err := check(g.Until, "roles", i, "timed_permissions", j, "until"); err != nil {
				return err
			}
		}
	}
	return nil
}

// pathString writes a path as roles[2].timed_permissions[0].until.
func pathString(path []any) string {
	var b strings.Builder
	for _, step := range path {
		switch v := step.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", v)
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, v)
		}
	}
	return b.String()
}

// MarshalPolicy writes a policy in the file format, normalized, so that
// exporting twice gives the same bytes. Memberships are written when the
// policy manages them, tests when it has some.
func MarshalPolicy(p Policy) ([]byte, error) {
	p.Normalize()
	type file struct {
		Version     int                `yaml:"version"`
		Roles       []PolicyRole       `yaml:"roles"`
		Memberships []PolicyMembership `yaml:"memberships,omitempty"`
		Tests       []PolicyCase       `yaml:"tests,omitempty"`
	}
	f := file{Version: p.Version, Roles: p.Roles, Tests: p.Tests}
	if f.Roles == nil {
		f.Roles = []PolicyRole{}
	}
	if p.ManageMemberships {
		f.Memberships = p.Memberships
		if len(f.Memberships) == 0 {
			// omitempty would drop the key, and with it the meaning
			// "memberships are managed, and there are none".
			b, err := yaml.MarshalWithOptions(struct {
				Version     int                `yaml:"version"`
				Roles       []PolicyRole       `yaml:"roles"`
				Memberships []PolicyMembership `yaml:"memberships"`
				Tests       []PolicyCase       `yaml:"tests,omitempty"`
			}{f.Version, f.Roles, []PolicyMembership{}, f.Tests}, yaml.IndentSequence(true))
			return b, err
		}
	}
	return yaml.MarshalWithOptions(f, yaml.IndentSequence(true))
}
