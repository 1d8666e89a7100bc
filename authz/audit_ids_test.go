package authz

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// Audit ids are opaque: the ids one client sees of consecutive records
// of its own say nothing of how many records other clients wrote between
// them (with one sequence they differed by one plus that count), and the
// cursor still pages through every record once, newest first, also on a
// second process over the same store.
func TestAuditIDsHideOtherClients(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, nil)
		ctx := context.Background()
		keyA := newKey()
		a, b := mustClient(t, az, keyA), mustClient(t, az, newKey())
		ok := mustOK(t)
		ok(a.AddRole(ctx, "a0", ""))
		for i := range 5 {
			ok(b.AddRole(ctx, fmt.Sprint("b", i), ""))
		}
		ok(a.AddRole(ctx, "a1", ""))
		recs, err := a.AuditRecords(ctx, "", 0, 10)
		if err != nil || len(recs) != 2 {
			t.Fatalf("a's records: %v, %v", recs, err)
		}
		if d := recs[0].ID - recs[1].ID; d == 6 || d == 1 {
			t.Fatalf("a's consecutive ids differ by %d: they count b's records", d)
		}
		for i := 2; i < 9; i++ {
			ok(a.AddRole(ctx, fmt.Sprint("a", i), ""))
		}
		second := openTarget(t, target, nil)
		a2 := mustClient(t, second, keyA)
		for _, cl := range []*Client{a, a2} {
			var seen []string
			var before int64
			for page := 0; page < 10; page++ {
				recs, err := cl.AuditRecords(ctx, "", before, 2)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range recs {
					seen = append(seen, r.Resource)
				}
				if len(recs) < 2 {
					break
				}
				before = recs[len(recs)-1].ID
			}
			if got := strings.Join(seen, ","); got != "role:a8,role:a7,role:a6,role:a5,role:a4,role:a3,role:a2,role:a1,role:a0" {
				t.Fatalf("paged by cursor: %s", got)
			}
		}
		if _, err := a.AuditRecords(ctx, "", -5, 2); !errors.Is(err, errBadRequest) {
			t.Fatalf("a negative cursor: %v", err)
		}
		w := performRequest(newTestRouter(t, az, ""), http.MethodGet, fmt.Sprintf("/api/audit?before=%d", int64(1)<<53), keyA, nil)
		checkEnvelope(t, w, http.StatusBadRequest)
	})
}
