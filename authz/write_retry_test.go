package authz

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun/dialect"

	"github.com/rolegate/rolegate/storage"
)

// A write PostgreSQL rolls back as a deadlock (40P01, raised by the server
// itself here) runs again and is stored once, with one audit record; one
// that keeps meeting deadlocks is 503 (ErrUnavailable), never a 500, and
// stores nothing. SQLite has no such error: its writes run once.
func TestWriteRetriedAfterDeadlock(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		postgres := az.db.Dialect().Name() == dialect.PG
		deadlock := func(ctx context.Context, w writer) error {
			if !postgres {
				return nil
			}
			_, err := w.db.ExecContext(ctx, `DO $$ BEGIN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01'; END $$`)
			return err
		}
		runs := 0
		ch := change{action: "add_role", resource: "role:r1", role: "r1"}
		w, err := c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
			runs++
			if runs == 1 {
				if err := deadlock(ctx, w); err != nil {
					return false, err
				}
			}
			return storage.AddRole(ctx, w.db, c.scope, "r1", "")
		})
		if err != nil || !w.changed {
			t.Fatalf("write after one deadlock: %v (changed %v)", err, w.changed)
		}
		if want := map[bool]int{true: 2, false: 1}[postgres]; runs != want {
			t.Errorf("the write ran %d times, want %d", runs, want)
		}
		if recs, err := c.AuditRecords(ctx, "add_role", 0, 10); err != nil || len(recs) != 1 {
			t.Errorf("audit records of the write: %d, %v; want 1", len(recs), err)
		}
		if !postgres {
			return
		}
		runs = 0
		_, err = c.write(ctx, change{action: "add_role", resource: "role:r2", role: "r2"}, func(ctx context.Context, w writer) (bool, error) {
			runs++
			if err := deadlock(ctx, w); err != nil {
				return false, err
			}
			return storage.AddRole(ctx, w.db, c.scope, "r2", "")
		})
		if !errors.Is(err, ErrUnavailable) || runs != maxWriteAttempts {
			t.Errorf("a write that always deadlocks: %v after %d runs; want ErrUnavailable after %d", err, runs, maxWriteAttempts)
		}
		if roles, err := c.Roles(ctx); err != nil || len(roles) != 1 {
			t.Errorf("roles after: %v, %v; want r1 alone", roles, err)
		}
	})
}
