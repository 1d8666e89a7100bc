package authz

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestScopedMembershipsBoundedHeap: GET /api/scoped_memberships over
// 100,000 scoped memberships (100 scopes, user names of 200 characters:
// about 25 MB of JSON) answers every entry in order while the heap grows
// by far less than the response, as for the other list routes
// (TestHugeListBoundedHeap). Reading them whole (storage.AllScopedMemberships)
// would hold every row and the body at once.
func TestScopedMembershipsBoundedHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 100,000 scoped memberships")
	}
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, nil)
		key := newKey()
		cl := mustClient(t, az, key)
		ctx := context.Background()
		mustOK(t)(cl.AddRole(ctx, "member", ""))
		pad := strings.Repeat("u", 190)
		for i := 0; i < hugeListSize; i += 1000 {
			var q strings.Builder
			args := make([]any, 0, 4000)
			q.WriteString("INSERT INTO rolegate_scoped_memberships (ns, scope, user_name, role) VALUES ")
			for j := i; j < i+1000; j++ {
				if j > i {
					q.WriteByte(',')
				}
				q.WriteString("(?, ?, ?, ?)")
				args = append(args, cl.scope.NS, fmt.Sprintf("scope-%03d", j%100), fmt.Sprintf("%s-%06d", pad, j), "member")
			}
			if _, err := az.db.NewRaw(q.String(), args...).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		t0 := time.Now()
		defer func() { t.Logf("listed in %v", time.Since(t0)) }()
		srv := httptest.NewServer(newTestRouter(t, az, ""))
		t.Cleanup(srv.Close)
		defer debug.SetGCPercent(debug.SetGCPercent(50))
		n := 0
		peak := heapPeak(func() {
			getList(t, srv, key, "/api/scoped_memberships", func(r io.Reader) {
				last := ""
				n = streamEntries(t, r, func(i int, e ScopedMembership) {
					k := e.Scope + "/" + e.User + "/" + e.Role
					if k <= last {
						t.Fatalf("entry %d = %q after %q", i, k, last)
					}
					last = k
				})
			})
		})
		if n != hugeListSize {
			t.Fatalf("listed %d, want %d", n, hugeListSize)
		}
		t.Logf("%s: heap peak %.1f MiB above the start for %d scoped memberships", target.Name, float64(peak)/(1<<20), n)
		if limit := uint64(8 << 20); peak > limit {
			t.Errorf("heap grew by %.1f MiB, want under %d MiB", float64(peak)/(1<<20), limit>>20)
		}
	})
}
