package authz

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/goccy/go-yaml"
)

// ErrInvalidPolicy: a policy file or value that cannot be applied (bad
// syntax, an unknown field, a bad name, a role defined twice, an
// inheritance or membership naming a role the policy does not define).
var ErrInvalidPolicy = errors.New("invalid policy")

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
//	memberships:          # optional: without it, memberships are left alone
//	  - {user: alice, role: editor}
//	  - {user: bob, role: viewer, scope: org-42}
//
// Unknown fields are refused (a typo must not silently drop a grant).
func ParsePolicy(data []byte) (Policy, error) {
	var p Policy
	if len(bytes.TrimSpace(data)) == 0 {
		return p, fmt.Errorf("%w: the file is empty", ErrInvalidPolicy)
	}
	if err := yaml.UnmarshalWithOptions(data, &p, yaml.Strict(), yaml.DisallowUnknownField()); err != nil {
		return Policy{}, fmt.Errorf("%w: %s", ErrInvalidPolicy, yaml.FormatError(err, false, true))
	}
	var keys map[string]any
	if err := yaml.Unmarshal(data, &keys); err == nil {
		if _, ok := keys["memberships"]; ok {
			p.ManageMemberships = true
			if p.Memberships == nil {
				p.Memberships = []PolicyMembership{}
			}
		}
	}
	if p.Version == 0 {
		return Policy{}, fmt.Errorf("%w: version: missing (write version: %d)", ErrInvalidPolicy, PolicyVersion)
	}
	if err := p.Validate(); err != nil {
		return Policy{}, err
	}
	p.Normalize()
	return p, nil
}

// MarshalPolicy writes a policy in the file format, normalized, so that
// exporting twice gives the same bytes. Memberships are written when the
// policy manages them.
func MarshalPolicy(p Policy) ([]byte, error) {
	p.Normalize()
	type file struct {
		Version     int                `yaml:"version"`
		Roles       []PolicyRole       `yaml:"roles"`
		Memberships []PolicyMembership `yaml:"memberships,omitempty"`
	}
	f := file{Version: p.Version, Roles: p.Roles}
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
			}{f.Version, f.Roles, []PolicyMembership{}}, yaml.IndentSequence(true))
			return b, err
		}
	}
	return yaml.MarshalWithOptions(f, yaml.IndentSequence(true))
}
