package authz

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// fanOutLayout is the memory attack of the issue: role big with 3,000
// permissions of 126 characters, roles f0..f599 each inheriting big, and
// user fan a member of all 600 (4,801 rows, about 450 KB of names).
func fanOutLayout() []Operation {
	ops := []Operation{{Op: "add_role", Role: "big"}}
	for i := range 3000 {
		ops = append(ops, Operation{Op: "add_permission", Role: "big", Permission: fmt.Sprintf("p%04d-%s", i, strings.Repeat("x", 120))})
	}
	for i := range 600 {
		f := fmt.Sprintf("f%d", i)
		ops = append(ops,
			Operation{Op: "add_role", Role: f},
			Operation{Op: "add_inheritance", Role: f, Parent: "big"},
			Operation{Op: "add_membership", User: "fan", Role: f})
	}
	return ops
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// One check of a user in 600 roles that all inherit one large set holds
// that set once: the heap grows by at most 64 MiB (it grew by about
// 300 MB when each role kept its own copy), and the answers are right.
// Through the library API, with the default settings, on both databases.
func TestFanOutCheckHeapIsBounded(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		if _, err := c.Batch(ctx, fanOutLayout()); err != nil {
			t.Fatal(err)
		}
		before := heapInUse()
		if ok, err := c.UserHasPermission(ctx, "fan", "nope"); err != nil || ok {
			t.Fatalf("fan has nope = %v, %v; want false", ok, err)
		}
		after := heapInUse()
		grew := int64(after) - int64(before)
		t.Logf("heap %.1f MiB -> %.1f MiB (%+.1f MiB); cache counts %.1f MiB",
			float64(before)/(1<<20), float64(after)/(1<<20), float64(grew)/(1<<20), float64(c.cache.Bytes())/(1<<20))
		if grew > 64<<20 {
			t.Fatalf("one check grew the heap by %.1f MiB; want at most 64", float64(grew)/(1<<20))
		}
		name := fmt.Sprintf("p%04d-%s", 2999, strings.Repeat("x", 120))
		if ok, err := c.UserHasPermission(ctx, "fan", name); err != nil || !ok {
			t.Fatalf("fan has an inherited permission = %v, %v; want true", ok, err)
		}
		runtime.KeepAlive(c)
	})
}
