package authztest_test

import (
	"testing"

	"github.com/rolegate/rolegate/authz/authztest"
)

// A policy's from and until hold in its tests as in the store, by the
// real clock: a membership until a time to come allows, one from a time
// to come does not yet, one whose until has passed is not loaded (and no
// error), and a timed grant likewise.
func TestPolicyTestsHonourBounds(t *testing.T) {
	s := authztest.New(t, parse(t, `version: 1
roles:
  - name: editor
    permissions: [edit]
    timed_permissions:
      - {name: deploy, until: 2100-01-01T00:00:00Z}
      - {name: publish, from: 2100-01-01T00:00:00Z}
      - {name: archive, until: 2000-01-01T00:00:00Z}
memberships:
  - {user: contractor, role: editor, until: 2100-01-01T00:00:00Z}
  - {user: starter, role: editor, from: 2100-01-01T00:00:00Z}
  - {user: gone, role: editor, until: 2000-01-01T00:00:00Z}
  - {user: oncall, role: editor, scope: org-1, from: 2000-01-01T00:00:00Z, until: 2100-01-01T00:00:00Z}
tests:
  - {user: contractor, permission: edit, allow: true}
  - {user: contractor, permission: deploy, allow: true}
  - {user: contractor, permission: publish, allow: false}
  - {user: contractor, permission: archive, allow: false}
  - {user: starter, permission: edit, allow: false}
  - {user: gone, permission: edit, allow: false}
  - {user: oncall, permission: edit, scope: org-1, allow: true}
`), authztest.Options{})
	s.Cases(t, s.Policy.Tests)
}
