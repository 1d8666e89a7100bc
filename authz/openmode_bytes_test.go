package authz

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// namespaceBytes counts the bytes of text a namespace holds (as stored),
// as the quota does.
func namespaceBytes(t *testing.T, db bun.IDB, c *Client) int64 {
	t.Helper()
	l := func(col string) string { return "length(CAST(" + col + " AS BLOB))" }
	if storage.IsPostgres(db) {
		l = func(col string) string { return "octet_length(" + col + ")" }
	}
	var n int64
	err := db.NewRaw(`SELECT coalesce(sum(b), 0) FROM (
		SELECT `+l("name")+` + `+l("description")+` AS b FROM rolegate_roles WHERE ns = ?
		UNION ALL SELECT `+l("role")+` + `+l("name")+` FROM rolegate_permissions WHERE ns = ?
		UNION ALL SELECT `+l("user_name")+` + `+l("role")+` FROM rolegate_memberships WHERE ns = ?
		UNION ALL SELECT `+l("scope")+` + `+l("user_name")+` + `+l("role")+` FROM rolegate_scoped_memberships WHERE ns = ?
		UNION ALL SELECT `+l("role")+` + `+l("parent")+` FROM rolegate_role_parents WHERE ns = ?) t`,
		c.scope.NS, c.scope.NS, c.scope.NS, c.scope.NS, c.scope.NS).Scan(context.Background(), &n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Open mode bounds the bytes of text of a namespace besides its rows:
// roles of long names and descriptions are refused (507, naming the
// setting) once the namespace would pass AUTH_MAX_BYTES_PER_CLIENT, by
// single writes, by a batch, by a longer description and by a rename to a
// longer name; what is stored never passes it, with encryption too; a
// deletion makes room again. With admin keys there is no such bound.
func TestOpenModeByteLimit(t *testing.T) {
	for _, encrypted := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "encrypted"}[encrypted], func(t *testing.T) {
			storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
				testByteLimit(t, target, encrypted)
			})
		})
	}
}

func testByteLimit(t *testing.T, target storagetest.Target, encrypted bool) {
	{
		ctx := context.Background()
		const limit = 16 << 10
		encrypt := func(c *Config) {
			if encrypted {
				c.EnableEncryption, c.EncryptDescriptions = true, true
				c.EncryptionKey = "a test passphrase, long enough for any rule"
			}
		}
		az := openTarget(t, target, func(c *Config) { c.MaxBytesPerClient = limit; encrypt(c) })
		c := mustClient(t, az, newKey())
		desc := strings.Repeat("d", MaxDescriptionLength)
		name := func(i int) string { return fmt.Sprintf("r%03d-%s", i, strings.Repeat("n", 115)) }
		added := 0
		var err error
		for i := range 100 {
			if _, err = c.AddRole(ctx, name(i), desc); err != nil {
				break
			}
			added++
		}
		if !errors.Is(err, ErrQuotaExceeded) || !strings.Contains(err.Error(), "AUTH_MAX_BYTES_PER_CLIENT") {
			t.Fatalf("after %d roles of %d bytes: %v, want ErrQuotaExceeded naming AUTH_MAX_BYTES_PER_CLIENT", added, len(name(0))+len(desc), err)
		}
		held := namespaceBytes(t, az.db, c)
		t.Logf("encrypted %v: %d roles stored, %d bytes of a bound of %d", encrypted, added, held, limit)
		if held > limit || held < limit/2 {
			t.Fatalf("the namespace holds %d bytes, want at most %d and near it", held, limit)
		}
		// Each way to add bytes is refused past the bound, and what is
		// stored stays within it.
		within := func(what string, err error) {
			t.Helper()
			if !errors.Is(err, ErrQuotaExceeded) {
				t.Errorf("%s past the bound: %v, want ErrQuotaExceeded", what, err)
			}
			if held := namespaceBytes(t, az.db, c); held > limit {
				t.Errorf("after %s the namespace holds %d bytes, over %d", what, held, limit)
			}
		}
		err = nil
		for i := 0; err == nil; i++ {
			_, err = c.AddPermission(ctx, name(0), fmt.Sprintf("p%03d-%s", i, strings.Repeat("p", 120)))
		}
		within("grants", err)
		_, err = c.Batch(ctx, []Operation{{Op: "add_role", Role: "b", Description: desc}, {Op: "add_role", Role: "b2", Description: desc}})
		within("a batch", err)
		if _, err := c.SetRoleDescription(ctx, name(0), ""); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddRole(ctx, "short", ""); err != nil {
			t.Fatal(err)
		}
		err = nil
		for i := 0; err == nil; i++ {
			_, err = c.AddMembership(ctx, fmt.Sprintf("u%d", i), "short")
		}
		within("memberships", err)
		_, err = c.SetRoleDescription(ctx, name(0), desc)
		within("a longer description", err)
		_, err = c.RenameUser(ctx, "u0", strings.Repeat("v", 128), false)
		within("a rename to a longer name", err)
		// A deletion makes room.
		if _, err := c.DelRole(ctx, name(1)); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddRole(ctx, name(1), desc); err != nil {
			t.Errorf("after a deletion: %v", err)
		}
		// With admin keys, nothing bounds the bytes.
		admin := newKey()
		closed := openTarget(t, freshTarget(t, target), func(cfg *Config) {
			cfg.MaxBytesPerClient, cfg.ClientKey = limit, admin
			encrypt(cfg)
		})
		ca := mustClient(t, closed, admin)
		for i := range 30 {
			if _, err := ca.AddRole(ctx, name(i), desc); err != nil {
				t.Fatalf("admin-key role %d: %v", i, err)
			}
		}
	}
}

// The byte bound kept on the revision row starts unknown and is then the
// exact count plus what each write added: a write past the bound counts
// exactly, so bytes freed by deletions are found again.
func TestByteBoundRecountsPastTheLimit(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		az := openTarget(t, target, func(c *Config) { c.MaxBytesPerClient = 4 << 10 })
		c := mustClient(t, az, newKey())
		for round := range 5 {
			for i := range 40 {
				if _, err := c.AddRole(ctx, fmt.Sprintf("role-%02d-%s", i, strings.Repeat("x", 90)), ""); err != nil {
					if errors.Is(err, ErrQuotaExceeded) {
						break
					}
					t.Fatal(err)
				}
			}
			roles, err := c.Roles(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(roles) < 30 {
				t.Fatalf("round %d: %d roles of 100 bytes fit in 4 KiB", round, len(roles))
			}
			for _, r := range roles {
				if _, err := c.DelRole(ctx, r.Role); err != nil {
					t.Fatal(err)
				}
			}
		}
		var b storage.Bounds
		if err := az.db.NewRaw("SELECT row_bound, byte_bound FROM rolegate_revisions WHERE ns = ?", c.scope.NS).Scan(ctx, &b.Rows, &b.Bytes); err != nil {
			t.Fatal(err)
		}
		if b.Bytes > 8<<10 {
			t.Errorf("byte bound %d after deletions and recounts", b.Bytes)
		}
	})
}
