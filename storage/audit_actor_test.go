package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// Records written before the actor column get the actor they must have
// had: a key's (found through its namespace's fingerprint) for a REST
// request, library for a Go call (no request id), anonymous for a refusal
// without a client, key:unknown when the namespace holds nothing.
func TestAuditActorMigration(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		db, err := storage.Open(ctx, target.Config)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := storage.MigrateUpTo(ctx, db, "20261125214500"); err != nil {
			t.Fatal(err)
		}
		key, err := storage.GetOrInitSetting(ctx, db, "audit_key", func() (string, error) { return "k3y", nil })
		if err != nil {
			t.Fatal(err)
		}
		known := storage.Scope{NS: storage.NamespaceOf("known")}
		if _, err := storage.AddRole(ctx, db, known, "r", ""); err != nil {
			t.Fatal(err)
		}
		fp := storage.AuditFingerprint([]byte(key), known.NS)
		gone := storage.AuditFingerprint([]byte(key), storage.NamespaceOf("gone"))
		for _, r := range [][3]string{{fp, "req-1", "rest"}, {fp, "", "lib"}, {"", "req-2", "stranger"}, {gone, "req-3", "gone"}} {
			if _, err := db.NewRaw(`INSERT INTO rolegate_audit (at, client, action, resource, outcome, request_id)
				VALUES (?, ?, 'add_role', ?, 'created', ?)`, time.Now().UTC(), r[0], r[2], r[1]).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := storage.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"rest": storage.KeyActor(known.NS), "lib": "library", "stranger": "anonymous", "gone": "key:unknown"}
		var rows []struct {
			Resource string `bun:"resource"`
			Actor    string `bun:"actor"`
			Reason   string `bun:"reason"`
		}
		if err := db.NewRaw("SELECT resource, actor, reason FROM rolegate_audit").Scan(ctx, &rows); err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(want) {
			t.Fatalf("%d rows after the migration, want %d", len(rows), len(want))
		}
		for _, r := range rows {
			if r.Actor != want[r.Resource] || r.Reason != "" {
				t.Errorf("record %s: actor %q reason %q, want actor %q and no reason", r.Resource, r.Actor, r.Reason, want[r.Resource])
			}
		}
	})
}
