package authz

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestWhereCanProperty: over a namespace with inheritance, global and
// scoped memberships, 10,000 random (user, permission, scope) triples, with
// random writes between every 250 of them: the where-can answer, the batch
// answer and the rows the filter keeps of the host's own table all agree
// with UserHasPermissionIn, every time, on both stores.
func TestWhereCanProperty(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		const (
			users, roles, perms, scopes = 16, 10, 8, 24
			triples, round              = 10_000, 250
		)
		az := openTarget(t, target, nil)
		ctx := context.Background()
		cl := mustClient(t, az, newKey())
		rng := rand.New(rand.NewPCG(34, uint64(len(target.Name))))
		user := func(i int) string { return fmt.Sprintf("user-%d", i) }
		role := func(i int) string { return fmt.Sprintf("role-%d", i) }
		perm := func(i int) string { return fmt.Sprintf("perm-%d", i) }
		scope := func(i int) string { return fmt.Sprintf("org-%02d", i) }

		// The world: roles with grants, inheritance from lower-numbered
		// roles (no cycle), a few global memberships, many scoped ones.
		var ops []Operation
		for r := range roles {
			ops = append(ops, Operation{Op: "add_role", Role: role(r)})
			for range 1 + rng.IntN(3) {
				ops = append(ops, Operation{Op: "add_permission", Role: role(r), Permission: perm(rng.IntN(perms))})
			}
			if r > 0 && rng.IntN(2) == 0 {
				ops = append(ops, Operation{Op: "add_inheritance", Role: role(r), Parent: role(rng.IntN(r))})
			}
		}
		for u := range users {
			if rng.IntN(4) == 0 {
				ops = append(ops, Operation{Op: "add_membership", User: user(u), Role: role(rng.IntN(roles))})
			}
			for range rng.IntN(12) {
				ops = append(ops, Operation{Op: "add_membership", User: user(u), Role: role(rng.IntN(roles)), Scope: scope(rng.IntN(scopes))})
			}
		}
		if _, err := cl.Batch(ctx, ops); err != nil {
			t.Fatal(err)
		}
		// The host's table: a row per org, org-00 twice, and an org no
		// membership names.
		var orgs []string
		for s := range scopes {
			orgs = append(orgs, scope(s))
		}
		hostOrgs(t, az, append(orgs, scope(0), scope(scopes)))

		// A random write, as an admin would make between requests.
		write := func() {
			var err error
			u, r, p, s := user(rng.IntN(users)), role(rng.IntN(roles)), perm(rng.IntN(perms)), scope(rng.IntN(scopes))
			switch rng.IntN(7) {
			case 0:
				_, err = cl.AddPermission(ctx, r, p)
			case 1:
				_, err = cl.DelPermission(ctx, r, p)
			case 2:
				_, err = cl.AddMembershipIn(ctx, s, u, r)
			case 3:
				_, err = cl.DelMembershipIn(ctx, s, u, r)
			case 4:
				if rng.IntN(3) == 0 {
					_, err = cl.AddMembership(ctx, u, r)
				} else {
					_, err = cl.DelMembership(ctx, u, r)
				}
			case 5:
				if a, b := rng.IntN(roles), rng.IntN(roles); a > b {
					_, err = cl.AddInheritance(ctx, role(a), role(b))
				}
			case 6:
				if a, b := rng.IntN(roles), rng.IntN(roles); a > b {
					_, err = cl.DelInheritance(ctx, role(a), role(b))
				}
			}
			if err != nil {
				t.Fatal(err)
			}
		}

		type triple struct{ user, perm, scope string }
		allowed := 0
		for start := 0; start < triples; start += round {
			for range 1 + rng.IntN(4) {
				write()
			}
			batch := make([]Check, round)
			want := make([]bool, round)
			for i := range batch {
				tr := triple{user(rng.IntN(users)), perm(rng.IntN(perms)), scope(rng.IntN(scopes + 1))} // org-24: no membership
				batch[i] = Check{User: tr.user, Permission: tr.perm, Scope: tr.scope}
				ok, err := cl.UserHasPermissionIn(ctx, tr.scope, tr.user, tr.perm)
				if err != nil {
					t.Fatal(err)
				}
				want[i] = ok
				if ok {
					allowed++
				}
				w, err := cl.WhereCan(ctx, tr.user, tr.perm)
				if err != nil {
					t.Fatal(err)
				}
				if w.In(tr.scope) != ok {
					t.Fatalf("triple %d %v: where-can %v %q says %v, UserHasPermissionIn %v", start+i, tr, w.Global(), w.Scopes(), w.In(tr.scope), ok)
				}
				rows, stmt := filtered(t, az, w)
				if slices.Contains(rows, tr.scope) != ok {
					t.Fatalf("triple %d %v: the filter (%s) keeps %q, UserHasPermissionIn %v", start+i, tr, stmt, rows, ok)
				}
			}
			got, err := cl.CheckMany(ctx, batch)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("triple %d %v: batch %v, UserHasPermissionIn %v", start+i, batch[i], got[i], want[i])
					}
				}
			}
		}
		t.Logf("%d triples, %d allowed, with writes every %d", triples, allowed, round)
		if allowed == 0 || allowed == triples {
			t.Fatalf("a degenerate world: %d of %d allowed", allowed, triples)
		}
	})
}
