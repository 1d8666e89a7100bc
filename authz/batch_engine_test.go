// Batch and policy tests of role inheritance and scoped memberships.

package authz

import (
	"context"
	"reflect"
	"testing"
)

// TestBatchInheritanceAndScopes: the engine's operations run in a batch,
// and a policy with them applies, exports the same, and diffs empty.
func TestBatchInheritanceAndScopes(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		p, err := ParsePolicy([]byte(`version: 1
roles:
  - name: editor
    permissions: [edit]
    inherits: [viewer]
  - name: viewer
    permissions: [read]
memberships:
  - {user: alice, role: editor, scope: org-42}
  - {user: bob, role: viewer}
`))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.ApplyPolicy(ctx, p); err != nil {
			t.Fatal(err)
		}
		exp, err := c.ExportPolicy(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(exp.Roles, p.Roles) || !reflect.DeepEqual(exp.Memberships, p.Memberships) {
			t.Errorf("export = %+v, want %+v", exp, p)
		}
		if d, err := c.DiffPolicy(ctx, p); err != nil || len(d) != 0 {
			t.Errorf("diff = %v, %v", d, err)
		}
		if _, err := c.Batch(ctx, []Operation{{Op: "add_inheritance", Role: "viewer", Parent: "editor"}}); err == nil {
			t.Error("a cycle was accepted")
		}
		res, err := c.Batch(ctx, []Operation{{Op: "del_inheritance", Role: "editor", Parent: "viewer"}, {Op: "del_membership", User: "alice", Role: "editor", Scope: "org-42"}})
		if err != nil || res[0].Result != "deleted" || res[1].Result != "deleted" {
			t.Errorf("deletes = %v, %v", res, err)
		}
	})
}
