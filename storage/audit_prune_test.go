package storage_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// Over the count bound, within one bucket (here the strangers': records
// with no client), refusals go before changes: refused requests (newer
// than every change here) cannot push the changes out of the audit log;
// changes go, oldest first, once no refusal is left.
func TestPruneAuditRefusalsFirst(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		insert := func(outcome, resource string) {
			t.Helper()
			if err := storage.InsertAudit(ctx, db, storage.AuditRecord{At: time.Now(), Action: "x", Resource: resource, Outcome: outcome}); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 5 {
			insert("created", fmt.Sprintf("change-%d", i))
		}
		for i := range 20 {
			insert("refused: client key is not accepted", fmt.Sprintf("refusal-%02d", i))
		}
		insert("created", "change-5")
		prune := func(keep int) []string {
			t.Helper()
			for {
				n, err := storage.PruneAuditBeyond(ctx, db, keep)
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					break
				}
			}
			var left []string
			if err := db.NewRaw("SELECT resource FROM rolegate_audit ORDER BY id").Scan(ctx, &left); err != nil {
				t.Fatal(err)
			}
			return left
		}
		left := prune(10)
		want := "[change-0 change-1 change-2 change-3 change-4 refusal-16 refusal-17 refusal-18 refusal-19 change-5]"
		if fmt.Sprint(left) != want {
			t.Errorf("kept %v, want %s", left, want)
		}
		left = prune(3)
		if want := "[change-3 change-4 change-5]"; fmt.Sprint(left) != want {
			t.Errorf("kept %v, want %s", left, want)
		}
	})
}
