package store_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// The login migrations keep the names earlier releases recorded in
// rolegate_migrations, so that a store they made is seen as up to date
// and is not migrated again.
func TestLoginMigrationNames(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		var names []string
		if err := db.NewRaw(`SELECT name FROM rolegate_migrations WHERE name IN ('20261121000200', '20261123000300', '20261123090500') ORDER BY name`).Scan(context.Background(), &names); err != nil {
			t.Fatal(err)
		}
		want := []string{"20261121000200", "20261123000300", "20261123090500"}
		if len(names) != len(want) {
			t.Fatalf("login migrations %v, want %v", names, want)
		}
		for i := range want {
			if names[i] != want[i] {
				t.Fatalf("login migrations %v, want %v", names, want)
			}
		}
	})
}
