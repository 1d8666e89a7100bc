package storage_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// auditLog inserts records and reads back what is left, per client.
type auditLog struct {
	t   *testing.T
	db  *bun.DB
	ctx context.Context
}

func (l auditLog) insert(client, outcome, resource string) {
	l.t.Helper()
	if err := storage.InsertAudit(l.ctx, l.db, storage.AuditRecord{At: time.Now(), Client: client, Action: "x", Resource: resource, Outcome: outcome}); err != nil {
		l.t.Fatal(err)
	}
}

func (l auditLog) prune(keep int) {
	l.t.Helper()
	for {
		n, err := storage.PruneAuditBeyond(l.ctx, l.db, keep)
		if err != nil {
			l.t.Fatal(err)
		}
		if n == 0 {
			return
		}
	}
}

// left returns the resources of the records kept whose resource starts
// with prefix, oldest first.
func (l auditLog) left(prefix string) []string {
	l.t.Helper()
	var left []string
	if err := l.db.NewRaw("SELECT resource FROM rolegate_audit WHERE resource LIKE ? ORDER BY id", prefix+"%").Scan(l.ctx, &left); err != nil {
		l.t.Fatal(err)
	}
	return left
}

func (l auditLog) count() int {
	l.t.Helper()
	var n int
	if err := l.db.NewRaw("SELECT COUNT(*) FROM rolegate_audit").Scan(l.ctx, &n); err != nil {
		l.t.Fatal(err)
	}
	return n
}

// wantNewest checks that the records of prefix kept are its newest n of
// total (named prefix-0000 on).
func (l auditLog) wantNewest(prefix string, n, total int) {
	l.t.Helper()
	left := l.left(prefix)
	var want []string
	for i := total - n; i < total; i++ {
		want = append(want, fmt.Sprintf("%s-%04d", prefix, i))
	}
	if fmt.Sprint(left) != fmt.Sprint(want) {
		l.t.Errorf("%s: kept %d %v, want the newest %d", prefix, len(left), left, n)
	}
}

// A stranger (B) who writes far more than the bound allows loses its own
// oldest records; client A, under its fair share, loses none, although
// its records are older than most of B's: one client cannot erase
// another's audit history.
func TestPruneAuditFairShare(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		l := auditLog{t, db, context.Background()}
		for i := range 50 {
			l.insert("b", "created", fmt.Sprintf("b-%04d", i))
		}
		for i := range 5 {
			l.insert("a", "created", fmt.Sprintf("a-%04d", i))
		}
		l.insert("a", "refused: role not found", "a-0005")
		for i := 50; i < 300; i++ {
			l.insert("b", "deleted", fmt.Sprintf("b-%04d", i))
		}
		l.insert("b", "refused: invalid name", "x-0000")
		l.prune(100)
		if n := l.count(); n != 100 {
			t.Errorf("%d records kept, want 100", n)
		}
		l.wantNewest("a", 6, 6)
		// B's refusal goes first, then its oldest changes.
		l.wantNewest("x", 0, 1)
		l.wantNewest("b", 94, 300)
	})
}

// Refusals of requests without an accepted key, and the refusals and
// no-op writes (a delete of nothing) of keys with no change on record
// (anybody can make up keys), share one bucket: a flood of them is cut to
// its share and cannot push out a client's changes; a stranger's flood of
// changes does not push them out either.
func TestPruneAuditStrangersBucket(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		l := auditLog{t, db, context.Background()}
		for i := range 5 {
			l.insert("a", "created", fmt.Sprintf("a-%04d", i))
		}
		for i := range 80 {
			client, outcome := "", "refused: client key is not accepted" // no key
			switch i % 4 {
			case 1:
				client = fmt.Sprintf("made-up-%d", i) // a key of its own, refused
				outcome = "refused: invalid name"
			case 3:
				client = fmt.Sprintf("made-up-%d", i) // a key that deletes nothing
				outcome = "absent"
			}
			l.insert(client, outcome, fmt.Sprintf("s-%04d", i))
		}
		for i := range 200 {
			l.insert("b", "created", fmt.Sprintf("b-%04d", i))
		}
		l.prune(100)
		// Fair level 47 (5 + 2*47 = 99 <= 100); the one left over goes to
		// the smaller bucket above the level.
		l.wantNewest("a", 5, 5)
		l.wantNewest("s", 48, 80)
		l.wantNewest("b", 47, 200)

		// Down to a bound below A's share, A loses its oldest too.
		l.prune(9)
		l.wantNewest("a", 3, 5)
		l.wantNewest("s", 3, 80)
		l.wantNewest("b", 3, 200)
	})
}

// Replicas that plan at once and carry out the same plan delete no more
// than one would: a plan deletes up to an id, not a count.
func TestPruneAuditPlanIdempotent(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		l := auditLog{t, db, context.Background()}
		for i := range 20 {
			l.insert("a", "created", fmt.Sprintf("a-%04d", i))
		}
		for i := range 100 {
			l.insert("b", "created", fmt.Sprintf("b-%04d", i))
		}
		var plans []storage.AuditPrune
		for range 2 {
			p, err := storage.PlanAuditPrune(l.ctx, db, 60)
			if err != nil {
				t.Fatal(err)
			}
			plans = append(plans, p)
		}
		for i := range plans {
			for !plans[i].Done() {
				if _, err := plans[i].Next(l.ctx, db); err != nil {
					t.Fatal(err)
				}
			}
		}
		l.wantNewest("a", 20, 20)
		l.wantNewest("b", 40, 100)
	})
}

// The plan counts and deletes through the partial indexes, not by reading
// the table. SQLite only: PostgreSQL picks by cost, and on a table this
// small any index is as cheap (TestPruneAuditFairShare1M times it at
// 1,000,000 records).
func TestPruneAuditFairShareIndexes(t *testing.T) {
	db := storagetest.OpenTarget(t, storagetest.SQLite(t))
	for q, index := range map[string]string{
		`SELECT client, COUNT(*) FROM rolegate_audit WHERE outcome IN ('created', 'deleted') GROUP BY client`:                         "rolegate_audit_changes_by_client",
		`SELECT id FROM rolegate_audit WHERE client = 'x' AND outcome NOT IN ('created', 'deleted') AND id <= 5 ORDER BY id LIMIT 10`: "rolegate_audit_others_by_client",
		`SELECT id FROM rolegate_audit WHERE client = 'x' AND outcome IN ('created', 'deleted') AND id <= 5 ORDER BY id`:              "rolegate_audit_changes_by_client",
		`SELECT id FROM rolegate_audit WHERE outcome NOT IN ('created', 'deleted') AND id <= 5 ORDER BY id LIMIT 10`:                  "rolegate_audit_others",
	} {
		if plan := explain(t, db, q); !strings.Contains(plan, index) {
			t.Errorf("%s: the plan does not use %s:\n%s", q, index, plan)
		}
	}
}

// The fair level: buckets at or below it lose nothing, those above keep
// the level, and what is left of keep goes one record each to the
// smallest above it; exactly keep records remain.
func TestFairCuts(t *testing.T) {
	for _, tc := range []struct {
		sizes []int64
		keep  int64
		want  string
	}{
		{[]int64{5, 10}, 20, "[0 0]"},            // under the bound
		{[]int64{5, 300}, 100, "[0 205]"},        // only the big one
		{[]int64{80, 5, 200}, 100, "[32 0 153]"}, // level 47, the 1 left to 80
		{[]int64{50, 50, 50}, 100, "[16 17 17]"}, // level 33, 1 left: the first
		{[]int64{1, 1, 1, 1}, 2, "[0 0 1 1]"},    // level 0, 2 left
		{[]int64{1000, 1000, 1000}, 0, "[1000 1000 1000]"},
		{nil, 10, "[]"},
	} {
		cuts := storage.FairCuts(tc.sizes, tc.keep)
		if got := fmt.Sprint(cuts); got != tc.want {
			t.Errorf("FairCuts(%v, %d) = %s, want %s", tc.sizes, tc.keep, got, tc.want)
		}
		var kept int64
		for i, n := range tc.sizes {
			kept += n - cuts[i]
		}
		if total := kept; tc.sizes != nil && total != min(tc.keep, sum(tc.sizes)) {
			t.Errorf("FairCuts(%v, %d) keeps %d", tc.sizes, tc.keep, total)
		}
	}
}

func sum(xs []int64) (s int64) {
	for _, x := range xs {
		s += x
	}
	return s
}
