package authz

import (
	"context"
	"encoding/hex"
	"github.com/rolegate/rolegate/authz/internal/keyring"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// A store encrypted before per-store salts (fixed salt, and a passphrase
// shorter than today's minimum) still opens and reads, and is not given a
// salt that would change its keys.
func TestEncryptionLegacyStoreStillOpens(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		const pass = "short-pw" // accepted then, under today's minimum
		key := newKey()
		// Write the store as the previous release did.
		db := storagetest.OpenTarget(t, target)
		legacy, err := cipher.New(pass)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := storage.GetOrInitSetting(ctx, db, keyring.SettingCheck, func() (string, error) { return legacy.CheckValue(), nil }); err != nil {
			t.Fatal(err)
		}
		ns := storage.NamespaceOf(key)
		raw, _ := hex.DecodeString(ns)
		s := storage.Scope{NS: ns, Users: legacy.ForClient(raw), Permissions: legacy.ForClient(raw), Descriptions: legacy.ForClient(raw)}
		for _, f := range []func() (bool, error){
			func() (bool, error) { return storage.AddRole(ctx, db, s, "editor", "") },
			func() (bool, error) { return storage.AddPermission(ctx, db, s, "editor", "edit") },
			func() (bool, error) { return storage.AddMembership(ctx, db, s, "", "alice", "editor") },
		} {
			if _, err := f(); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		if err := db.NewRaw("SELECT user_name FROM rolegate_memberships").Scan(ctx, &got); err != nil || len(got) != 1 || !cipher.IsEncrypted(got[0]) {
			t.Fatalf("legacy store not encrypted: %v %v", got, err)
		}
		db.Close()

		az := openTarget(t, target, encrypted(pass))
		c := mustClient(t, az, key)
		if ok, err := c.UserHasPermission(ctx, "alice", "edit"); err != nil || !ok {
			t.Fatalf("the legacy store does not read: %v %v", ok, err)
		}
		if _, salted, err := storage.GetSetting(ctx, az.db, keyring.SettingSalt); err != nil || salted {
			t.Fatalf("a legacy store was given a salt (%v, %v)", salted, err)
		}
		// Its unbound format-1 values were converted to format 2.
		var left int
		if err := az.db.NewRaw(`SELECT (SELECT count(*) FROM rolegate_memberships WHERE user_name NOT LIKE '/e2/%')
			+ (SELECT count(*) FROM rolegate_permissions WHERE name NOT LIKE '/e2/%')`).Scan(ctx, &left); err != nil || left != 0 {
			t.Fatalf("%d values not converted to format 2 (%v)", left, err)
		}
	})
}

// A new store gets a random salt of its own, kept across restarts, so two
// stores with one passphrase store one name differently; a passphrase
// under the minimum is refused for a new store, which is left unencrypted.
func TestEncryptionSaltPerStore(t *testing.T) {
	ctx := context.Background()
	const pass = "a passphrase of some length"
	key := newKey()
	var salts, members []string
	for i := 0; i < 2; i++ {
		target := storagetest.SQLite(t)
		if i == 1 {
			target = storagetest.PostgreSQL(t)
		}
		az := openTarget(t, target, encrypted(pass))
		c := mustClient(t, az, key)
		if _, err := c.AddRole(ctx, "editor", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddMembership(ctx, "alice", "editor"); err != nil {
			t.Fatal(err)
		}
		salt, ok, err := storage.GetSetting(ctx, az.db, keyring.SettingSalt)
		if err != nil || !ok || len(salt) != 2*cipher.SaltSize {
			t.Fatalf("store %d salt %q %v %v", i, salt, ok, err)
		}
		salts = append(salts, salt)
		members = append(members, rawStrings(t, az, "SELECT user_name FROM rolegate_memberships")...)
		az.Close()
		again := openTarget(t, target, encrypted(pass))
		if ok, err := mustClient(t, again, key).HasMembership(ctx, "alice", "editor"); err != nil || !ok {
			t.Fatalf("reopened store %d: %v %v", i, ok, err)
		}
	}
	if salts[0] == salts[1] || len(members) != 2 || members[0] == members[1] {
		t.Fatalf("two stores share a salt or a stored name: %v %v", salts, members)
	}

	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		cfg := configFor(target)
		encrypted("fifteen chars!!")(&cfg)
		if az, err := Open(ctx, cfg); err == nil {
			az.Close()
			t.Fatal("a new store accepted a 15-character passphrase")
		} else if !strings.Contains(err.Error(), "AUTH_ENCRYPTION_KEY") || strings.Contains(err.Error(), "fifteen") {
			t.Fatalf("error %q: want one naming AUTH_ENCRYPTION_KEY, without the key", err)
		}
		db := storagetest.OpenTarget(t, target)
		if _, checked, _ := storage.GetSetting(ctx, db, keyring.SettingCheck); checked {
			t.Fatal("a refused passphrase left a key check value")
		}
	})
}
