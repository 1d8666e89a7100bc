package authz

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// chainLayout is a chain of roles d0 to d<depth> (d<i> inheriting
// d<i+1>), each granted p<i>, and user all a member of every one of them.
func chainLayout(depth int) []Operation {
	var ops []Operation
	for i := 0; i <= depth; i++ {
		ops = append(ops, Operation{Op: "add_role", Role: fmt.Sprint("d", i)},
			Operation{Op: "add_permission", Role: fmt.Sprint("d", i), Permission: fmt.Sprint("p", i)},
			Operation{Op: "add_membership", User: "all", Role: fmt.Sprint("d", i)})
		if i > 0 {
			ops = append(ops, Operation{Op: "add_inheritance", Role: fmt.Sprint("d", i-1), Parent: fmt.Sprint("d", i)})
		}
	}
	return ops
}

// TestCheckMissStatements counts what an uncached check asks of the store:
// the user's roles, then the effective sets of all of them, two statements
// whatever the number of roles (it was one more per role: 34 for a user in
// a chain of 33 roles, 601 for a user in 600 roles inheriting one large
// role), on both databases.
func TestCheckMissStatements(t *testing.T) {
	const most = 2
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ft := freshTarget(t, target)
		db := storagetest.OpenTarget(t, ft)
		h := &statementCounter{}
		db.AddQueryHook(h)
		az, err := OpenDB(context.Background(), db, configFor(ft))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { az.Close() })
		c := mustClient(t, az, newKey())
		ctx := context.Background()
		if _, err := c.Batch(ctx, append(chainLayout(32), fanOutLayout()...)); err != nil {
			t.Fatal(err)
		}
		top := fmt.Sprintf("p%04d-%s", 2999, strings.Repeat("x", 120))
		for _, q := range []struct {
			name, user, perm string
			want             bool
		}{
			{"member of a chain of 33 roles, the top's permission", "all", "p32", true},
			{"member of a chain of 33 roles, a permission nobody holds", "all", "nope", false},
			{"member of 600 roles inheriting one of 3,000 permissions", "fan", top, true},
		} {
			var times []time.Duration
			for range 5 {
				c.cache.Flush()
				h.take()
				start := time.Now()
				ok, err := c.UserHasPermission(counted(ctx), q.user, q.perm)
				times = append(times, time.Since(start))
				if err != nil || ok != q.want {
					t.Fatalf("%s: %v, %v; want %v", q.name, ok, err, q.want)
				}
				if stmts := h.take(); len(stmts) > most {
					for _, s := range stmts[:min(len(stmts), 5)] {
						t.Logf("    %s", oneLine(s))
					}
					t.Fatalf("%s: an uncached check ran %d statements, want at most %d", q.name, len(stmts), most)
				} else if len(times) == 1 {
					t.Logf("%s: %d statements", q.name, len(stmts))
				}
			}
			t.Logf("%s: uncached check %v (the fastest of 5), %v (the slowest)", q.name,
				minDuration(times).Round(10*time.Microsecond), maxDuration(times).Round(10*time.Microsecond))
		}
	})
}

func minDuration(d []time.Duration) time.Duration {
	m := d[0]
	for _, x := range d[1:] {
		m = min(m, x)
	}
	return m
}

func maxDuration(d []time.Duration) time.Duration {
	m := d[0]
	for _, x := range d[1:] {
		m = max(m, x)
	}
	return m
}
