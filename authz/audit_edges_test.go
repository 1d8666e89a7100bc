package authz

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// waitFor polls cond until it holds or the deadline passes; background
// work (the retention) has no signal to wait on.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Audit records older than AuditRetention, and the oldest beyond
// AuditMaxRecords, are deleted in the background; the newest stay.
func TestAuditRetention(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		// Records written before this rolegate starts: a month old, and fresh.
		db := storagetest.OpenTarget(t, target)
		old := time.Now().Add(-30 * 24 * time.Hour)
		for i := range 7 {
			at := old
			if i >= 4 {
				at = time.Now()
			}
			if err := storage.InsertAudit(ctx, db, storage.AuditRecord{At: at, Action: "add_role", Resource: "role:r", Outcome: "created", RequestID: "pre-" + string(rune('0'+i))}); err != nil {
				t.Fatal(err)
			}
		}
		az := openTarget(t, target, func(c *Config) {
			c.AuditRetention = 7 * 24 * time.Hour
			c.AuditMaxRecords = 10
			c.auditPruneEvery = 20 * time.Millisecond
		})
		waitFor(t, "the month-old records to go", func() bool { return countAll(t, az, "rolegate_audit") == 3 })

		c := mustClient(t, az, newKey())
		for i := range 25 {
			if _, err := c.AddRole(ctx, "r"+strings.Repeat("x", i), ""); err != nil {
				t.Fatal(err)
			}
		}
		waitFor(t, "the count bound", func() bool { return countAll(t, az, "rolegate_audit") == 10 })
		// The bound is shared fairly: the 3 fresh records with no client
		// stay, and the client's newest 7.
		var newest []string
		if err := az.db.NewRaw("SELECT resource FROM rolegate_audit ORDER BY id").Scan(ctx, &newest); err != nil {
			t.Fatal(err)
		}
		noClient, err := storage.ListAudit(ctx, az.db, "", "", 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(newest) != 10 || newest[9] != "role:r"+strings.Repeat("x", 24) || newest[3] != "role:r"+strings.Repeat("x", 18) ||
			len(noClient) != 3 {
			t.Errorf("kept %v, want the 3 fresh records with no client and the client's newest 7", newest)
		}
	})
}

// In open mode a stranger's own writes (add/delete pairs stay within the
// row quota) each add an audit record; over AuditMaxRecords the stranger
// loses its own oldest records, and another client's few stay, however
// old.
func TestAuditRetentionFairShare(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		az := openTarget(t, target, func(c *Config) {
			c.AuditMaxRecords = 30
			c.auditPruneEvery = 20 * time.Millisecond
		})
		if !az.open() {
			t.Fatal("want open mode")
		}
		aKey, bKey := newKey(), newKey()
		a, b := mustClient(t, az, aKey), mustClient(t, az, bKey)
		for _, r := range []string{"r1", "r2", "r3"} {
			if _, err := a.AddRole(ctx, r, ""); err != nil {
				t.Fatal(err)
			}
		}
		for range 100 {
			if _, err := b.AddRole(ctx, "churn", ""); err != nil {
				t.Fatal(err)
			}
			if _, err := b.DelRole(ctx, "churn"); err != nil {
				t.Fatal(err)
			}
		}
		waitFor(t, "the count bound", func() bool { return countAll(t, az, "rolegate_audit") <= 30 })
		if recs := auditOf(t, az, aKey); len(recs) != 3 {
			t.Errorf("client A kept %d of its 3 records", len(recs))
		}
		recs := auditOf(t, az, bKey)
		if len(recs) != 27 || recs[0].Action != "del_role" {
			t.Errorf("stranger B kept %d records (newest %+v), want its newest 27", len(recs), recs[0])
		}
	})
}

// auditOf reads the audit records of one client.
func auditOf(t *testing.T, az *Authz, key string) []storage.AuditRecord {
	t.Helper()
	recs, err := storage.ListAudit(context.Background(), az.db, mustClient(t, az, key).fingerprint, "", 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// A client that connects directly cannot choose the address its audit
// records carry: X-Forwarded-For and X-Real-IP are believed only from
// AUTH_TRUSTED_PROXIES.
func TestAuditForwardedHeaderSpoof(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		for _, tc := range []struct {
			name    string
			proxies []string
			want    string
		}{
			{"no trusted proxies", nil, "192.0.2.1"}, // httptest's socket address
			{"another proxy", []string{"10.0.0.0/8"}, "192.0.2.1"},
			{"the peer is a trusted proxy", []string{"192.0.2.0/24"}, "198.51.100.7"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				az, _ := openREST(t, target, func(c *Config) { c.TrustedProxies = tc.proxies })
				e := newTestRouter(t, az, "")
				key := newKey()
				checkEnvelope(t, performRequest(e, "POST", "/api/role/r", key, nil,
					"X-Forwarded-For", "6.6.6.6, 198.51.100.7"), http.StatusCreated)
				checkEnvelope(t, performRequest(e, "GET", "/api/members/none", key, nil,
					"X-Real-IP", "6.6.6.6"), http.StatusNotFound)
				recs := auditOf(t, az, key)
				if len(recs) != 2 {
					t.Fatalf("%d records, want 2", len(recs))
				}
				if recs[1].RemoteAddr != tc.want {
					t.Errorf("change recorded from %q, want %q", recs[1].RemoteAddr, tc.want)
				}
				wantRefusal := tc.want
				if tc.proxies != nil && tc.want != "192.0.2.1" {
					wantRefusal = "6.6.6.6" // X-Real-IP from a trusted proxy
				}
				if recs[0].RemoteAddr != wantRefusal {
					t.Errorf("refusal recorded from %q, want %q", recs[0].RemoteAddr, wantRefusal)
				}
			})
		}
	})
}

// A client's X-Request-ID is never our request id: the response and the
// audit record carry a fresh id of ours, and the client's is kept apart.
func TestAuditClientRequestIDKeptApart(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, _ := openREST(t, target, nil)
		e := newTestRouter(t, az, "")
		key := newKey()
		var ours []string
		for _, p := range []string{"/api/role/a", "/api/role/b"} {
			w := performRequest(e, "POST", p, key, nil, "X-Request-ID", "forged-id")
			checkEnvelope(t, w, http.StatusCreated)
			ours = append(ours, w.Header().Get("X-Request-ID"))
		}
		recs := auditOf(t, az, key)
		if len(recs) != 2 {
			t.Fatalf("%d records, want 2", len(recs))
		}
		for i, r := range recs {
			want := ours[len(ours)-1-i]
			if r.RequestID != want || uuid.Validate(r.RequestID) != nil || r.ClientRequestID != "forged-id" {
				t.Errorf("record %d: request id %q (response said %q), client's %q; want ours and forged-id apart",
					i, r.RequestID, want, r.ClientRequestID)
			}
		}
		if recs[0].RequestID == recs[1].RequestID {
			t.Errorf("two requests share the request id %q", recs[0].RequestID)
		}
	})
}

// One client's flood of refusals does not crowd another client's refusals
// out of its audit log, nor the refusals of requests without a key. (Both
// clients hold a role: in open mode the refusals of a namespace that holds
// nothing are not recorded, see TestEmptyNamespaceRefusalsNotAudited.)
func TestAuditRefusalBudgetPerClient(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		const perSecond = 5
		az, _ := openREST(t, target, func(c *Config) { c.AuditRefusalsPerSecond = perSecond })
		e := newTestRouter(t, az, "")
		flooder, victim := newKey(), newKey()
		for _, k := range []string{flooder, victim} {
			checkEnvelope(t, performRequest(e, "POST", "/api/role/r", k, nil), http.StatusCreated)
		}
		for range 100 {
			checkEnvelope(t, performRequest(e, "GET", "/api/members/none", flooder, nil), http.StatusNotFound)
		}
		checkEnvelope(t, performRequest(e, "GET", "/api/members/none", victim, nil), http.StatusNotFound)
		checkEnvelope(t, performRequest(e, "GET", "/api/roles", "", nil), http.StatusUnauthorized)

		if n := len(auditOf(t, az, flooder)); n > 2*perSecond+perSecond {
			t.Errorf("the flooder got %d records, over its budget", n)
		}
		if recs := auditOf(t, az, victim); len(recs) != 2 || recs[0].Outcome != "refused: role not found" {
			t.Errorf("the other client's refusal: %+v, want it recorded after its role", recs)
		}
		if recs, err := storage.ListAudit(context.Background(), az.db, "", "", 0, 10); err != nil || len(recs) != 1 {
			t.Errorf("keyless refusal: %d records, %v; want 1", len(recs), err)
		}
	})
}
