package authz

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// attackLongEnv runs TestAttackNoopBatchesAuditBound at the size of the
// red-team finding: six 8 MiB batches of 50,000 operations.
const attackLongEnv = "AUTH_TEST_ATTACK_LONG"

// Red-team finding 3, on a real loopback server in open mode: six batches
// of del_permission of absent permissions from one stranger once wrote an
// audit record per operation (300,000 records), far past
// AUTH_AUDIT_MAX_RECORDS, with retention every 10 minutes. Now the table
// stays within the bound plus 1% at every moment sampled, and another
// client's change records all remain. The short version (always on) sends
// batches of 5,000 with a bound of 1,000; with AUTH_TEST_ATTACK_LONG=1,
// batches of 50,000 (8 MiB each) with a bound of 10,000.
func TestAttackNoopBatchesAuditBound(t *testing.T) {
	ops, bound := 5_000, 1_000
	if os.Getenv(attackLongEnv) != "" {
		ops, bound = 50_000, 10_000
	}
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		// The default retention tick (10 minutes): only what the writes do
		// themselves keeps the table bounded.
		az := openTarget(t, target, func(c *Config) { c.AuditMaxRecords = bound })
		if !az.open() {
			t.Fatal("want open mode")
		}
		srv := httptest.NewServer(newTestRouter(t, az, ""))
		t.Cleanup(srv.Close)
		victim, stranger := newKey(), newKey()

		const victimChanges = 40
		for i := range victimChanges {
			httpDo(t, srv, http.MethodPost, fmt.Sprintf("/api/role/v%d", i), victim, nil, http.StatusCreated)
		}
		httpDo(t, srv, http.MethodPost, "/api/role/r", stranger, nil, http.StatusCreated)

		body := noopBatch(ops)
		if len(body) > MaxBatchBodyBytes {
			t.Fatalf("batch body of %d bytes is over the limit", len(body))
		}
		t.Logf("%d operations, %.1f MiB a batch", ops, float64(len(body))/(1<<20))

		audit := sampleAudit(az.db, 2*time.Millisecond)
		start := time.Now()
		for range 6 {
			data := httpDo(t, srv, http.MethodPost, "/api/batch", stranger, body, http.StatusOK)
			if n := len(data["results"].([]any)); n != ops {
				t.Fatalf("%d results, want %d", n, ops)
			}
			audit.sample()
		}
		most, samples := audit.done(t)
		limit := int64(bound + bound/100)
		t.Logf("six batches in %v; audit records: at most %d in %d samples (bound %d + 1%% = %d)",
			time.Since(start).Round(time.Millisecond), most, samples, bound, limit)
		if most > limit {
			t.Errorf("the audit table reached %d records, over AUTH_AUDIT_MAX_RECORDS %d + 1%%", most, bound)
		}
		created := 0
		for _, r := range auditOf(t, az, victim) {
			if r.Action == "add_role" && r.Outcome == "created" {
				created++
			}
		}
		if created != victimChanges {
			t.Errorf("the other client kept %d of its %d change records", created, victimChanges)
		}
		recs := auditOf(t, az, stranger)
		if len(recs) == 0 || recs[0].Action != "batch" || recs[0].Outcome != fmt.Sprintf("unchanged: %d operations", ops) {
			t.Errorf("the stranger's newest record is %+v, want the batch's one record of its %d no-ops", recs[0], ops)
		}
	})
}

// noopBatch is a POST /api/batch body of n del_permission of absent
// permissions of role r, with names of 116 characters (50,000 of
// them are just under 8 MiB).
func noopBatch(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"operations":[`)
	pad := strings.Repeat("x", 108)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"op":"del_permission","role":"r","permission":"%s%08d"}`, pad, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// httpDo sends one request to srv with the client key and checks its
// status; it returns the envelope's data.
func httpDo(t *testing.T, srv *httptest.Server, method, path, key string, body []byte, want int) map[string]any {
	t.Helper()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, srv.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d: %.300s", method, path, resp.StatusCode, want, raw)
	}
	var env struct {
		Data any `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatalf("%s %s: body %.300s: %v", method, path, raw, err)
	}
	data, _ := env.Data.(map[string]any)
	return data
}
