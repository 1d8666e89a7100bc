package storage_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// closureOf computes, from the stored inheritances, what the closure must
// hold: per role, each ancestor with the length of the longest chain to it.
func closureOf(edges []storage.Edge) map[[2]string]int {
	parents := map[string][]string{}
	for _, e := range edges {
		parents[e.Role] = append(parents[e.Role], e.Parent)
	}
	out := map[[2]string]int{}
	var walk func(from, at string, depth int)
	walk = func(from, at string, depth int) {
		for _, p := range parents[at] {
			if k := [2]string{from, p}; out[k] < depth+1 {
				out[k] = depth + 1
			}
			walk(from, p, depth+1)
		}
	}
	for r := range parents {
		walk(r, r, 0)
	}
	return out
}

func storedClosure(t *testing.T, db bun.IDB, s storage.Scope) map[[2]string]int {
	t.Helper()
	var rows []struct {
		Role     string `bun:"role"`
		Ancestor string `bun:"ancestor"`
		Depth    int    `bun:"depth"`
	}
	if err := db.NewRaw("SELECT role, ancestor, depth FROM rolegate_role_ancestors WHERE ns = ?", s.NS).
		Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	out := map[[2]string]int{}
	for _, r := range rows {
		out[[2]string{r.Role, r.Ancestor}] = r.Depth
	}
	return out
}

func checkClosure(t *testing.T, db bun.IDB, s storage.Scope, step string) {
	t.Helper()
	edges, err := storage.AllEdges(context.Background(), db, s)
	if err != nil {
		t.Fatal(err)
	}
	if want, got := closureOf(edges), storedClosure(t, db, s); !maps.Equal(want, got) {
		t.Fatalf("after %s: closure\n got %v\nwant %v\nedges %v", step, got, want, edges)
	}
}

// The closure follows every change of inheritance (added, removed, a role
// deleted) on both databases: random changes over a dozen roles, the table
// compared after each with the one computed from the stored inheritances,
// and the effective reads with what the closure implies.
func TestInheritanceClosureFollowsChanges(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := storage.Scope{NS: storage.NamespaceOf("closure")}
		const n = 12
		role := func(i int) string { return fmt.Sprint("r", i) }
		for i := range n {
			if _, err := storage.AddRole(ctx, db, s, role(i), ""); err != nil {
				t.Fatal(err)
			}
			if _, err := storage.AddPermission(ctx, db, s, role(i), "p"+fmt.Sprint(i)); err != nil {
				t.Fatal(err)
			}
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for step := range 300 {
			a, b := role(rng.IntN(n)), role(rng.IntN(n))
			var what string
			err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				switch k := rng.IntN(10); {
				case k < 6:
					what = "add " + a + "->" + b
					_, err := storage.AddInheritance(ctx, tx, s, a, b)
					if errors.Is(err, storage.ErrCycle) || errors.Is(err, storage.ErrShapeLimit) {
						return nil
					}
					return err
				case k < 9:
					what = "del " + a + "->" + b
					_, err := storage.DeleteInheritance(ctx, tx, s, a, b)
					return err
				default:
					what = "delete role " + a
					if _, err := storage.DeleteRole(ctx, tx, s, a); err != nil {
						return err
					}
					if _, err := storage.AddRole(ctx, tx, s, a, ""); err != nil {
						return err
					}
					_, err := storage.AddPermission(ctx, tx, s, a, "p"+strings.TrimPrefix(a, "r"))
					return err
				}
			})
			if err != nil {
				t.Fatalf("step %d %s: %v", step, what, err)
			}
			checkClosure(t, db, s, fmt.Sprintf("step %d %s", step, what))
		}
		// The reads agree with the closure.
		edges, err := storage.AllEdges(ctx, db, s)
		if err != nil {
			t.Fatal(err)
		}
		want := closureOf(edges)
		for i := range n {
			r := role(i)
			sources, perms := []string{r}, []string{"p" + fmt.Sprint(i)}
			for k := range want {
				if k[0] == r {
					sources = append(sources, k[1])
					perms = append(perms, "p"+strings.TrimPrefix(k[1], "r"))
				}
			}
			slices.Sort(sources)
			slices.Sort(perms)
			gotPerms, gotSources, err := roleEffective(ctx, db, s, r)
			if err != nil || !slices.Equal(gotPerms, perms) || !slices.Equal(gotSources, sources) {
				t.Fatalf("RoleEffective(%s) = %v, %v, %v; want %v, %v", r, gotPerms, gotSources, err, perms, sources)
			}
		}
	})
}

// The shape limits refuse, with ErrShapeLimit and nothing stored, an
// inheritance that would give a role, or a role below it, a chain longer
// than the depth limit or more ancestors than the ancestor limit; an
// ancestor reached twice counts once.
func TestInheritanceShapeLimits(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := storage.Scope{NS: storage.NamespaceOf("shape"), MaxInheritanceDepth: 3, MaxRoleAncestors: 4}
		for _, r := range []string{"a0", "a1", "a2", "a3", "a4", "b0", "b1", "x", "p1", "q1", "q2", "q3", "y", "z"} {
			if _, err := storage.AddRole(ctx, db, s, r, ""); err != nil {
				t.Fatal(err)
			}
		}
		add := func(role, parent string) error {
			return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				_, err := storage.AddInheritance(ctx, tx, s, role, parent)
				return err
			})
		}
		ok := func(role, parent string) {
			t.Helper()
			if err := add(role, parent); err != nil {
				t.Fatalf("%s -> %s: %v", role, parent, err)
			}
		}
		refused := func(role, parent, setting string) {
			t.Helper()
			err := add(role, parent)
			if !errors.Is(err, storage.ErrShapeLimit) || !strings.Contains(err.Error(), setting) {
				t.Fatalf("%s -> %s: %v; want ErrShapeLimit naming %s", role, parent, err, setting)
			}
			if got, _ := storage.RoleParents(ctx, db, s, role); slices.Contains(got, parent) {
				t.Fatalf("%s -> %s stored though refused", role, parent)
			}
		}
		// a0 -> a1 -> a2 -> a3: depth 3, at the limit.
		ok("a0", "a1")
		ok("a1", "a2")
		ok("a2", "a3")
		refused("a3", "a4", "AUTH_MAX_INHERITANCE_DEPTH") // a0 would be 4 deep
		refused("b0", "a0", "AUTH_MAX_INHERITANCE_DEPTH") // b0 would be 4 deep
		ok("b1", "a1")                                    // 3 deep
		if err := add("a3", "a0"); !errors.Is(err, storage.ErrCycle) {
			t.Fatalf("cycle: %v", err)
		}
		// Removing a link makes room again.
		if _, err := storage.DeleteInheritance(ctx, db, s, "a2", "a3"); err != nil {
			t.Fatal(err)
		}
		ok("a3", "a4")

		// p1 inherits q1..q3; y -> p1 gives y 4 ancestors, at the limit;
		// y -> q1 again adds none, so it is allowed; y -> z is a fifth.
		ok("p1", "q1")
		ok("p1", "q2")
		ok("p1", "q3")
		ok("y", "p1")
		ok("y", "q1")
		refused("y", "z", "AUTH_MAX_ROLE_ANCESTORS")
		// x -> y would give x 5 ancestors.
		refused("x", "y", "AUTH_MAX_ROLE_ANCESTORS")
		// z -> y gives z 5 ancestors (y and its 4) too.
		refused("z", "y", "AUTH_MAX_ROLE_ANCESTORS")
		checkClosure(t, db, s, "limits")

		// Adding what exists is never refused, even past a limit that was
		// lowered since.
		s.MaxInheritanceDepth = 1
		if created, err := storage.AddInheritance(ctx, db, s, "a0", "a1"); err != nil || created {
			t.Fatalf("existing link: %v, %v", created, err)
		}
	})
}

// The migration fills the closure from the inheritances a store already
// holds.
func TestInheritanceClosureMigration(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		db, err := storage.Open(ctx, target.Config)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := storage.MigrateUpTo(ctx, db, "20261125183000"); err != nil {
			t.Fatal(err)
		}
		s := storage.Scope{NS: storage.NamespaceOf("migrate")}
		for i := range 8 {
			if _, err := storage.AddRole(ctx, db, s, fmt.Sprint("m", i), ""); err != nil {
				t.Fatal(err)
			}
		}
		// A diamond over a chain: m0 -> m1 -> m2 -> m3 -> m4, m0 -> m4,
		// m5 -> m2, m6 -> m5, m6 -> m4; m7 alone.
		for _, e := range [][2]string{{"m0", "m1"}, {"m1", "m2"}, {"m2", "m3"}, {"m3", "m4"}, {"m0", "m4"},
			{"m5", "m2"}, {"m6", "m5"}, {"m6", "m4"}} {
			if _, err := db.NewRaw("INSERT INTO rolegate_role_parents (ns, role, parent) VALUES (?, ?, ?)",
				s.NS, e[0], e[1]).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := storage.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		checkClosure(t, db, s, "migration")
		if got := storedClosure(t, db, s)[[2]string{"m0", "m4"}]; got != 4 {
			t.Fatalf("m0 -> m4 depth %d, want the longest chain, 4", got)
		}
	})
}
