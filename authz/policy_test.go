package authz

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

const testPolicy = `version: 1
roles:
  - name: viewer
    description: Reads notes
    permissions: [read]
  - name: editor
    description: Edits notes
    permissions: [edit, read, edit]
  - name: admin
    permissions: [delete]
`

// TestApplyPolicy: apply makes the store match, a second apply and the
// diff find nothing, export gives the policy back, and memberships made at
// run time survive a policy without memberships.
func TestApplyPolicy(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		// Existing state: a role the policy drops, a stale grant, a
		// description the policy changes, a member.
		for _, op := range []Operation{
			{Op: "add_role", Role: "legacy"}, {Op: "add_role", Role: "viewer", Description: "old"},
			{Op: "add_permission", Role: "viewer", Permission: "stale"}, {Op: "add_membership", User: "bob", Role: "viewer"},
		} {
			if _, err := c.Batch(ctx, []Operation{op}); err != nil {
				t.Fatal(err)
			}
		}
		p, err := ParsePolicy([]byte(testPolicy))
		if err != nil {
			t.Fatal(err)
		}
		audits := auditCount(t, az, c)
		plan, err := c.ApplyPolicy(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		// admin, editor created; viewer described; stale revoked; legacy
		// deleted; four grants.
		if len(plan) != 9 {
			t.Errorf("plan = %+v", plan)
		}
		if got := auditCount(t, az, c) - audits; got != len(plan) {
			t.Errorf("%d audit records for %d changes", got, len(plan))
		}
		assertBool(t, "bob read", mustCheck(t, c, "bob", "read"), nil, true)
		assertBool(t, "bob stale", mustCheck(t, c, "bob", "stale"), nil, false)
		roles, _ := c.Roles(ctx)
		if len(roles) != 3 || roles[2] != (Role{Role: "viewer", Description: "Reads notes"}) {
			t.Errorf("roles = %v", roles)
		}

		rev, audits := revisionOf(t, az, c), auditCount(t, az, c)
		if plan, err := c.ApplyPolicy(ctx, p); err != nil || len(plan) != 0 {
			t.Errorf("second apply = %v, %v", plan, err)
		}
		if d, err := c.DiffPolicy(ctx, p); err != nil || len(d) != 0 {
			t.Errorf("diff after apply = %v, %v", d, err)
		}
		if revisionOf(t, az, c) != rev || auditCount(t, az, c) != audits {
			t.Errorf("a no-op apply bumped the revision or wrote audit records")
		}
		exp, err := c.ExportPolicy(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(exp.Roles, p.Roles) {
			t.Errorf("export roles = %+v\nwant %+v", exp.Roles, p.Roles)
		}
		if want := []PolicyMembership{{User: "bob", Role: "viewer"}}; !reflect.DeepEqual(exp.Memberships, want) {
			t.Errorf("export memberships = %+v", exp.Memberships)
		}
		// Export, marshal, parse, apply: nothing to do.
		b, err := MarshalPolicy(exp)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParsePolicy(b)
		if err != nil {
			t.Fatalf("parse export: %v\n%s", err, b)
		}
		if plan, err := c.ApplyPolicy(ctx, back); err != nil || len(plan) != 0 {
			t.Errorf("apply of the export = %v, %v\n%s", plan, err, b)
		}

		// A policy that declares memberships manages them; an empty list
		// removes them all.
		managed, err := ParsePolicy([]byte(testPolicy + "memberships:\n  - {user: alice, role: editor}\n"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.ApplyPolicy(ctx, managed); err != nil {
			t.Fatal(err)
		}
		assertBool(t, "bob read after managed", mustCheck(t, c, "bob", "read"), nil, false)
		assertBool(t, "alice edit", mustCheck(t, c, "alice", "edit"), nil, true)
		none, err := ParsePolicy([]byte(testPolicy + "memberships: []\n"))
		if err != nil || !none.ManageMemberships {
			t.Fatalf("parse memberships: [] = %+v, %v", none, err)
		}
		if _, err := c.ApplyPolicy(ctx, none); err != nil {
			t.Fatal(err)
		}
		assertBool(t, "alice edit after none", mustCheck(t, c, "alice", "edit"), nil, false)
	})
}

// TestParsePolicyRefuses: bad files are refused with ErrInvalidPolicy.
func TestParsePolicyRefuses(t *testing.T) {
	for name, src := range map[string]string{
		"empty":             "",
		"no version":        "roles: []\n",
		"version 2":         "version: 2\nroles: []\n",
		"unknown field":     "version: 1\nroles:\n  - name: a\n    permision: [x]\n",
		"bad name":          "version: 1\nroles:\n  - name: ' a'\n",
		"twice":             "version: 1\nroles:\n  - name: a\n  - name: a\n",
		"unknown parent":    "version: 1\nroles:\n  - name: a\n    inherits: [b]\n",
		"self parent":       "version: 1\nroles:\n  - name: a\n    inherits: [a]\n",
		"cycle":             "version: 1\nroles:\n  - {name: a, inherits: [b]}\n  - {name: b, inherits: [c]}\n  - {name: c, inherits: [a]}\n",
		"member of unknown": "version: 1\nroles: []\nmemberships:\n  - {user: u, role: r}\n",
		"not yaml":          "version: 1\nroles: [\n",
	} {
		if _, err := ParsePolicy([]byte(src)); !errors.Is(err, ErrInvalidPolicy) {
			t.Errorf("%s: err = %v, want ErrInvalidPolicy", name, err)
		}
	}
}

// TestApplyPolicyReplicas: several replicas applying the same policy at
// once all succeed, and every change is made (and audited) once.
func TestApplyPolicyReplicas(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		p, err := ParsePolicy([]byte(testPolicy))
		if err != nil {
			t.Fatal(err)
		}
		var clients []*Client
		for range 3 {
			clients = append(clients, mustClient(t, openTarget(t, target, nil), key))
		}
		var wg sync.WaitGroup
		plans := make([][]Operation, 6)
		errs := make([]error, 6)
		for i := range plans {
			wg.Add(1)
			go func() {
				defer wg.Done()
				plans[i], errs[i] = clients[i%3].ApplyPolicy(ctx, p)
			}()
		}
		wg.Wait()
		total := 0
		for i := range plans {
			if errs[i] != nil {
				t.Errorf("replica %d: %v", i, errs[i])
			}
			total += len(plans[i])
		}
		// 3 roles and 4 grants, each made by exactly one of them.
		if total != 7 {
			t.Errorf("changes made in all = %d, want 7", total)
		}
		c := clients[0]
		if got := auditCount(t, c.az, c); got != 7 {
			t.Errorf("audit records = %d, want 7", got)
		}
		if d, err := c.DiffPolicy(ctx, p); err != nil || len(d) != 0 {
			t.Errorf("diff = %v, %v", d, err)
		}
	})
}

// TestInheritanceCycleNamed: the cycle is named in the error; a diamond
// is not a cycle.
func TestInheritanceCycleNamed(t *testing.T) {
	_, err := ParsePolicy([]byte("version: 1\nroles:\n  - {name: a, inherits: [b]}\n  - {name: b, inherits: [c]}\n  - {name: c, inherits: [a]}\n"))
	if err == nil || !strings.Contains(err.Error(), "a -> b -> c -> a") {
		t.Errorf("err = %v", err)
	}
	if _, err := ParsePolicy([]byte("version: 1\nroles:\n  - {name: a, inherits: [b, c]}\n  - {name: b, inherits: [d]}\n  - {name: c, inherits: [d]}\n  - {name: d}\n")); err != nil {
		t.Errorf("diamond refused: %v", err)
	}
}
