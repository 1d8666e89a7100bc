package storage_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestPruneAuditFairShare1M times one retention run over 1,000,000
// records: client A with 1,000 changes, 50,000 refusals with no client,
// 50,000 refusals each under a made-up key, a stranger B with the rest;
// the bound is 900,000, then 150,000. Slow (it writes a million rows), so it runs only
// with AUTH_TEST_AUDIT_1M=1.
func TestPruneAuditFairShare1M(t *testing.T) {
	if os.Getenv("AUTH_TEST_AUDIT_1M") == "" {
		t.Skip("set AUTH_TEST_AUDIT_1M=1 to time a retention run at 1,000,000 records")
	}
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		start := time.Now()
		if _, err := db.NewRaw(`WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM g WHERE n < 1000000)
			INSERT INTO rolegate_audit (at, client, action, resource, outcome, request_id, client_request_id, remote_addr)
			SELECT ?, CASE WHEN n % 1000 = 0 THEN 'a' WHEN n % 20 = 1 THEN '' WHEN n % 20 = 2 THEN 'k' || n ELSE 'b' END,
				'add_role', 'role:r',
				CASE WHEN n % 1000 = 0 THEN 'created' WHEN n % 20 IN (1, 2) THEN 'refused: x' ELSE 'created' END, '', '', ''
			FROM g`, time.Now().UTC()).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if storage.IsPostgres(db) {
			if _, err := db.ExecContext(ctx, "VACUUM ANALYZE rolegate_audit"); err != nil {
				t.Fatal(err)
			}
		} else if _, err := db.ExecContext(ctx, "ANALYZE"); err != nil {
			t.Fatal(err)
		}
		t.Logf("1,000,000 records written in %v", time.Since(start).Round(time.Millisecond))

		// First over the bound by 100,000: only B is above the fair level.
		// Then down to 150,000: the strangers' bucket (fair level 74,500)
		// loses its oldest too, through the walk of refusals of no client
		// or of a key with no change.
		run(t, db, 900_000)
		run(t, db, 150_000)
		var total, a int
		if err := db.NewRaw("SELECT COUNT(*) FROM rolegate_audit").Scan(ctx, &total); err != nil {
			t.Fatal(err)
		}
		if err := db.NewRaw("SELECT COUNT(*) FROM rolegate_audit WHERE client = 'a'").Scan(ctx, &a); err != nil {
			t.Fatal(err)
		}
		if total != 150_000 || a != 1000 {
			t.Errorf("%d records kept, %d of A's 1000; want 150000 and all of A's", total, a)
		}
	})
}

// run carries out one retention run to keep and logs how long it took.
func run(t *testing.T, db *bun.DB, keep int) {
	t.Helper()
	ctx := context.Background()
	start := time.Now()
	plan, err := storage.PlanAuditPrune(ctx, db, keep)
	if err != nil {
		t.Fatal(err)
	}
	planned := time.Since(start)
	var deleted int64
	var batches int
	var slowest time.Duration
	for !plan.Done() {
		b := time.Now()
		n, err := plan.Next(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		slowest = max(slowest, time.Since(b))
		deleted += n
		batches++
	}
	t.Logf("keep %d: plan %v; %d deleted in %d batches, slowest batch %v; run %v", keep,
		planned.Round(time.Millisecond), deleted, batches, slowest.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}
