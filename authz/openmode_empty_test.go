package authz

import (
	"context"
	"net/http"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// In open mode a namespace that holds nothing costs no audit record: a
// fresh key per request (any UUID v4 is a key) made one record each, 680 a
// second. Its refused reads (404) and refused writes (the namespace quota,
// 507) are answered as before and recorded nowhere; once the key holds a
// role its refusals are recorded again. On both stores.
func TestEmptyNamespaceRefusalsNotAudited(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, _ := openREST(t, target, func(c *Config) { c.MaxNamespaces = 1 })
		e := newTestRouter(t, az, "")
		count := func() int {
			var n int
			if err := az.db.NewRaw("SELECT count(*) FROM rolegate_audit").Scan(context.Background(), &n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		owner := newKey()
		checkEnvelope(t, performRequest(e, "POST", "/api/role/r", owner, nil), http.StatusCreated)
		before, all := len(auditOf(t, az, owner)), count()
		for range 50 {
			key := newKey()
			checkEnvelope(t, performRequest(e, "GET", "/api/members/none", key, nil), http.StatusNotFound)
			checkEnvelope(t, performRequest(e, "GET", "/api/role_permissions/none", key, nil), http.StatusNotFound)
			checkEnvelope(t, performRequest(e, "POST", "/api/role/x", key, nil), http.StatusInsufficientStorage)
		}
		for _, key := range []string{newKey(), newKey()} {
			if recs := auditOf(t, az, key); len(recs) != 0 {
				t.Errorf("a fresh key has %d records", len(recs))
			}
		}
		if n := count(); n != all {
			t.Errorf("150 refusals of fresh keys made %d audit records", n-all)
		}
		// A key holding a role has its refusals recorded.
		checkEnvelope(t, performRequest(e, "GET", "/api/members/none", owner, nil), http.StatusNotFound)
		if recs := auditOf(t, az, owner); len(recs) != before+1 || recs[0].Outcome != "refused: role not found" {
			t.Errorf("the owner's refusal: %d records (was %d), want it recorded", len(recs), before)
		}
	})
}
