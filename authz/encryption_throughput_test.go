package authz

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestReencodeThroughput measures conversion (plain to encrypted) and
// rotation (one key to another) at the large benchmark size (100,000
// users, 10,000 roles), on SQLite and PostgreSQL, in rows per second:
//
//	AUTH_TEST_REENCODE_THROUGHPUT=1 go test -count=1 -v -run TestReencodeThroughput ./authz/
//
// The figure is the Open with the pass (for a rotation, until the
// background pass ends) (the pass, the lock, and
// on SQLite VACUUM and a WAL checkpoint, on PostgreSQL VACUUM (FULL) of
// the rewritten tables), over the rows it rewrote. Gated: it loads
// hundreds of thousands of rows.
func TestReencodeThroughput(t *testing.T) {
	if os.Getenv("AUTH_TEST_REENCODE_THROUGHPUT") == "" {
		t.Skip("set AUTH_TEST_REENCODE_THROUGHPUT=1")
	}
	const newPass = "the new passphrase, rotated in"
	size := benchSizes[len(benchSizes)-1]
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		d := makeBenchData(size)
		plain := openTarget(t, target, func(c *Config) { c.DisableAuditLogging = true })
		d.load(t, mustClient(t, plain, key))
		var rows int
		if err := plain.db.NewRaw(`SELECT (SELECT count(*) FROM rolegate_permissions) + (SELECT count(*) FROM rolegate_memberships)`).Scan(ctx, &rows); err != nil {
			t.Fatal(err)
		}
		plain.Close()

		for _, step := range []struct {
			name string
			mod  func(*Config)
		}{
			{"conversion", encrypted(testPassphrase)},
			{"rotation", func(c *Config) { encrypted(newPass)(c); c.EncryptionKeyPrevious = testPassphrase }},
		} {
			start := time.Now()
			// Not openTarget's 60 s: converting 300,000 rows in Open takes
			// longer than that on a slow machine.
			cfg := configFor(target)
			step.mod(&cfg)
			octx, cancel := context.WithTimeout(ctx, 15*time.Minute)
			az, err := Open(octx, cfg)
			cancel()
			if err != nil {
				t.Fatalf("Open on %s: %v", target.Name, err)
			}
			t.Cleanup(func() { az.Close() })
			if step.name == "rotation" {
				// Open returns at once; the pass runs in the background.
				t.Logf("%s rotation: Open returned in %.2f s", target.Name, time.Since(start).Seconds())
				waitRotated(t, az)
			}
			secs := time.Since(start).Seconds()
			t.Logf("%s %s: %d rows in %.2f s: %.0f rows/s (Open included)", target.Name, step.name, rows, secs, float64(rows)/secs)
			ck := d.checks[0]
			if ok, err := mustClient(t, az, key).UserHasPermission(ctx, ck.user, ck.perm); err != nil || ok != ck.want {
				t.Fatalf("after %s: %v %v", step.name, ok, err)
			}
			az.Close()
		}
	})
}
