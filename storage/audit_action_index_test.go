package storage_test

import (
	"context"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// GET /api/audit?action= reads by (client, action, id): with only the
// (client, id) index, an action the client has no record of walked every
// record of the client. The plan must use the index (on PostgreSQL with
// sequential scans off: its planner prefers them on a small table).
func TestAuditActionIndex(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		const q = `SELECT id FROM rolegate_audit WHERE client = 'c' AND action = 'zzz' ORDER BY id DESC LIMIT 100`
		if plan := explain(t, db, q); !strings.Contains(plan, "rolegate_audit_by_client_action") {
			t.Errorf("the plan does not use rolegate_audit_by_client_action:\n%s", plan)
		}
	})
}

// explain is the query plan of q, one line per row and column (on
// PostgreSQL with sequential scans off: its planner prefers them on the
// small tables of a test).
func explain(t *testing.T, db *bun.DB, q string) string {
	t.Helper()
	var plan []string
	err := db.RunInTx(context.Background(), nil, func(ctx context.Context, tx bun.Tx) error {
		explain := "EXPLAIN QUERY PLAN " + q
		if storage.IsPostgres(db) {
			if _, err := tx.ExecContext(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
				return err
			}
			explain = "EXPLAIN " + q
		}
		rows, err := tx.QueryContext(ctx, explain)
		if err != nil {
			return err
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			for _, v := range vals {
				switch v := v.(type) {
				case string:
					plan = append(plan, v)
				case []byte:
					plan = append(plan, string(v))
				}
			}
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "\n")
}
