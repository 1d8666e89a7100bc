package authz

import (
	"context"
	"testing"
)

// TestLookAlikeNamesBatchAndPolicy: POST /api/batch (Client.Batch) and
// policy files are entry points too: a decomposed "rôle" names the
// composed role there as well, instead of creating a second role that
// looks the same.
func TestLookAlikeNamesBatchAndPolicy(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		cl := mustClient(t, az, newKey())
		mustOK(t)(cl.AddRole(ctx, nfcRole, ""))
		res, err := cl.Batch(ctx, []Operation{
			{Op: "add_role", Role: nfdRole},
			{Op: "add_permission", Role: nfdRole, Permission: nfdRole},
			{Op: "add_membership", User: nfdRole + "-user", Role: nfdRole},
		})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Result != "existed" {
			t.Errorf("batch add_role(decomposed) = %q, want existed", res[0].Result)
		}
		if ok, err := cl.UserHasPermission(ctx, nfcRole+"-user", nfcRole); err != nil || !ok {
			t.Errorf("UserHasPermission(composed) after the batch = %v, %v", ok, err)
		}

		_, err = cl.ApplyPolicy(ctx, Policy{Roles: []PolicyRole{
			{Name: nfcRole, Permissions: []string{nfcRole}},
			{Name: "other", Permissions: []string{"x"}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = cl.ApplyPolicy(ctx, Policy{Roles: []PolicyRole{
			{Name: nfdRole, Permissions: []string{nfdRole}},
			{Name: "other", Permissions: []string{"x"}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		roles, err := cl.Roles(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range roles {
			names = append(names, r.Role)
		}
		assertList(t, "roles", names, nil, "other", nfcRole)
		if ops, err := cl.DiffPolicy(ctx, Policy{Roles: []PolicyRole{
			{Name: nfdRole, Permissions: []string{nfdRole}},
			{Name: "other", Permissions: []string{"x"}},
		}, Memberships: []PolicyMembership{{User: nfdRole + "-user", Role: nfdRole}}}); err != nil || len(ops) != 0 {
			t.Errorf("DiffPolicy(decomposed) = %v, %v; want nothing to do", ops, err)
		}
	})
}
