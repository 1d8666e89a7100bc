package authz

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz/internal/clock"
)

const boundedPolicy = `version: 1
roles:
  - name: editor
    permissions: [edit]
    timed_permissions:
      - {name: deploy, from: 2030-01-07T10:00:00Z}
      - {name: publish, until: 2030-01-11T18:00:00+01:00}
memberships:
  - {user: alice, role: editor, until: 2030-01-11T18:00:00Z}
  - {user: bob, role: editor, from: 2030-01-07T10:00:00Z, until: 2030-01-11T18:00:00Z}
  - {user: carol, role: editor}
  - {user: dave, role: editor, scope: org-1, from: 2030-01-07T10:00:00Z}
  - {user: old, role: editor, until: 2030-01-01T00:00:00Z}
`

// Policy files carry from and until on memberships (global and scoped)
// and on timed_permissions: parsed, applied with them (checks keep time),
// exported with them (held now or not), the export parsed back equal and
// diffing empty; a bound changed in the file is one add in the diff, with
// the new bound; an entry whose until has passed is left out when
// applied (a restore after it, not a 422). On both stores.
func TestPolicyBounds(t *testing.T) {
	forEachStoreClocked(t, func(t *testing.T, az *Authz, clk *clock.Fake) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		p, err := ParsePolicy([]byte(boundedPolicy))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.ApplyPolicy(ctx, p); err != nil {
			t.Fatal(err)
		}
		type probe struct {
			user, scope, perm string
			want              bool
		}
		check := func(when string, probes ...probe) {
			t.Helper()
			for _, p := range probes {
				ok, err := c.UserHasPermissionIn(ctx, p.scope, p.user, p.perm)
				if err != nil || ok != p.want {
					t.Fatalf("%s: %s may %s in %q = %v, %v; want %v", when, p.user, p.perm, p.scope, ok, err, p.want)
				}
			}
		}
		check("at 09:00", probe{"alice", "", "edit", true}, probe{"alice", "", "deploy", false}, probe{"alice", "", "publish", true},
			probe{"bob", "", "edit", false}, probe{"dave", "org-1", "edit", false}, probe{"old", "", "edit", false})
		exported, err := c.ExportPolicy(ctx)
		if err != nil {
			t.Fatal(err)
		}
		file, err := MarshalPolicy(exported)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			"- name: deploy\n        from: 2030-01-07T10:00:00Z",
			"- name: publish\n        until: 2030-01-11T17:00:00Z",
			"user: bob\n    role: editor\n    from: 2030-01-07T10:00:00Z\n    until: 2030-01-11T18:00:00Z",
			"user: dave\n    role: editor\n    scope: org-1\n    from: 2030-01-07T10:00:00Z",
		} {
			if !strings.Contains(string(file), want) {
				t.Fatalf("the export lacks %q:\n%s", want, file)
			}
		}
		if strings.Contains(string(file), "old") {
			t.Fatalf("an entry expired before the apply was stored:\n%s", file)
		}
		back, err := ParsePolicy(file)
		if err != nil {
			t.Fatal(err)
		}
		if ops, err := c.DiffPolicy(ctx, back); err != nil || len(ops) != 0 {
			t.Fatalf("the export diffs: %+v, %v", ops, err)
		}
		// A bound moved: one add with the new bound, and the checks follow.
		moved, err := ParsePolicy([]byte(strings.Replace(boundedPolicy,
			"{user: bob, role: editor, from: 2030-01-07T10:00:00Z, until: 2030-01-11T18:00:00Z}",
			"{user: bob, role: editor, until: 2030-01-11T18:00:00Z}", 1)))
		if err != nil {
			t.Fatal(err)
		}
		ops, err := c.DiffPolicy(ctx, moved)
		if err != nil || len(ops) != 1 || ops[0].Op != "add_membership" || ops[0].User != "bob" || ops[0].StartsAt != nil ||
			ops[0].ExpiresAt == nil || !ops[0].ExpiresAt.Equal(time.Date(2030, 1, 11, 18, 0, 0, 0, time.UTC)) {
			t.Fatalf("diff of a moved bound: %+v, %v", ops, err)
		}
		if _, err := c.ApplyPolicy(ctx, moved); err != nil {
			t.Fatal(err)
		}
		check("bob from now", probe{"bob", "", "edit", true})
		clk.Set(time.Date(2030, 1, 7, 10, 0, 0, 0, time.UTC))
		check("at 10:00", probe{"alice", "", "deploy", true}, probe{"dave", "org-1", "edit", true})
		clk.Set(time.Date(2030, 1, 11, 18, 0, 0, 0, time.UTC))
		check("on Friday at 18:00", probe{"alice", "", "edit", false}, probe{"carol", "", "publish", false}, probe{"carol", "", "deploy", true})
	})
}

// A from or until that is not a time is refused with its line, not read
// as no bound; so are from not before until, a timed grant without
// bounds or also under permissions, and a membership twice with other
// bounds.
func TestPolicyBoundsRefused(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"version: 1\nroles: [{name: r}]\nmemberships:\n  - {user: a, role: r, until: Friday}\n", "line 4: memberships[0].until: must be a time in RFC 3339"},
		{"version: 1\nroles: [{name: r}]\nmemberships:\n  - {user: a, role: r, from: null}\n", "line 4: memberships[0].from: must be a time"},
		{"version: 1\nroles:\n  - name: r\n    timed_permissions:\n      - {name: p, until: soon}\n", "line 5: roles[0].timed_permissions[0].until: must be a time"},
		{"version: 1\nroles: [{name: r}]\nmemberships:\n  - {user: a, role: r, from: 2030-01-02T00:00:00Z, until: 2030-01-01T00:00:00Z}\n", "from (2030-01-02T00:00:00Z) must come before until"},
		{"version: 1\nroles:\n  - name: r\n    timed_permissions:\n      - {name: p}\n", "has neither from nor until"},
		{"version: 1\nroles:\n  - name: r\n    permissions: [p]\n    timed_permissions:\n      - {name: p, until: 2030-01-01T00:00:00Z}\n", "granted twice"},
		{"version: 1\nroles: [{name: r}]\nmemberships:\n  - {user: a, role: r}\n  - {user: a, role: r, until: 2030-01-01T00:00:00Z}\n", "appears twice with different from or until"},
	} {
		_, err := ParsePolicy([]byte(tc.file))
		if !errors.Is(err, ErrInvalidPolicy) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v; want %q", tc.file, err, tc.want)
		}
	}
}
