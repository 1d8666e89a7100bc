package authz

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
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
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/scoped_memberships", nil)
			req.Header.Set("Authorization", "Bearer "+key)
			res, err := srv.Client().Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Errorf("status %d", res.StatusCode)
				return
			}
			dec := json.NewDecoder(res.Body)
			for {
				tok, err := dec.Token()
				if err != nil {
					t.Errorf("body: %v after %d entries", err, n)
					return
				}
				if tok == "data" {
					break
				}
			}
			if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
				t.Errorf("data: %v %v", tok, err)
				return
			}
			last := ""
			for dec.More() {
				var e ScopedMembership
				if err := dec.Decode(&e); err != nil {
					t.Errorf("entry %d: %v", n, err)
					return
				}
				k := e.Scope + "/" + e.User + "/" + e.Role
				if k <= last {
					t.Errorf("entry %d = %q after %q", n, k, last)
					return
				}
				last = k
				n++
			}
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
