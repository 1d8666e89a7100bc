package authz

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"github.com/rolegate/rolegate/authz/internal/keyring"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
	"github.com/rolegate/rolegate/storage/storagetest"
)

func expect(t testing.TB, name string, want bool) func(bool, error) {
	return func(got bool, err error) {
		t.Helper()
		assertBool(t, name, got, err, want)
	}
}

// The distinctive names written in plain before encryption is turned on.
const (
	plainMarkUser = "zebra-plaintext-user-7q"
	plainMarkPerm = "okapi-plaintext-perm-7q"
)

var errCrash = errors.New("simulated crash")

// crashAfter makes the next conversion or rotation stop after n batches,
// as a crash would; the returned func restores the hook.
func crashAfter(t *testing.T, n int) func() {
	t.Cleanup(func() { keyring.ReencodeHook = nil })
	keyring.ReencodeHook = func(_ *keyring.Keys, _ context.Context, batch int) error {
		if batch >= n {
			return errCrash
		}
		return nil
	}
	return func() { keyring.ReencodeHook = nil }
}

// loadPlain writes users memberships, a grant and the distinctive names,
// without encryption, with audit records (which name them too).
func loadPlain(t *testing.T, target storagetest.Target, key string, users int) {
	t.Helper()
	ctx := context.Background()
	az := openTarget(t, target, nil)
	c := mustClient(t, az, key)
	expect(t, "add_role", true)(c.AddRole(ctx, "editor", "edits things"))
	expect(t, "add_permission", true)(c.AddPermission(ctx, "editor", plainMarkPerm))
	expect(t, "add_membership", true)(c.AddMembership(ctx, plainMarkUser, "editor"))
	expect(t, "add_scoped", true)(c.AddMembershipIn(ctx, "eu", plainMarkUser+"-s", "editor"))
	ops := make([]Operation, 0, users)
	for i := range users {
		ops = append(ops, Operation{Op: "add_membership", User: "user-" + strconv.Itoa(i), Role: "editor"})
	}
	if _, err := c.Batch(ctx, ops); err != nil {
		t.Fatal(err)
	}
	az.Close()
}

// checkConverted: every name reads back, through lookups and lists.
func checkConverted(t *testing.T, c *Client, users int) {
	t.Helper()
	ctx := context.Background()
	c.cache.Flush()
	expect(t, "has_permission", true)(c.UserHasPermission(ctx, plainMarkUser, plainMarkPerm))
	expect(t, "has_permission scoped", true)(c.UserHasPermissionIn(ctx, "eu", plainMarkUser+"-s", plainMarkPerm))
	expect(t, "has_permission last user", true)(c.UserHasPermission(ctx, "user-"+strconv.Itoa(users-1), plainMarkPerm))
	members, err := c.GetRoleMembers(ctx, "editor")
	if err != nil || len(members) != users+1 {
		t.Fatalf("members: %d, %v; want %d", len(members), err, users+1)
	}
	roles, err := c.Roles(ctx)
	if err != nil || len(roles) != 1 || roles[0].Description != "edits things" {
		t.Fatalf("roles = %v, %v", roles, err)
	}
	// One form: a delete finds the converted row.
	expect(t, "del_membership", true)(c.DelMembership(ctx, "user-0", "editor"))
	expect(t, "add_membership again", true)(c.AddMembership(ctx, "user-0", "editor"))
}

// storeFiles returns the raw bytes of the store's files: the SQLite
// database, -wal and -shm files, or every PostgreSQL relation of the
// test's schema (tables, indexes, TOAST) after a checkpoint.
func storeFiles(t *testing.T, az *Authz, target storagetest.Target) map[string][]byte {
	t.Helper()
	ctx := context.Background()
	out := map[string][]byte{}
	if !storage.IsPostgres(az.db) {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			b, err := os.ReadFile(target.Config.SQLitePath + suffix)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			out[suffix] = b
		}
		return out
	}
	// A checkpoint writes the shared buffers to the relation files; on a
	// loaded machine it can outlast the driver's read timeout, so it runs
	// on a connection of its own with a longer one.
	ckpt := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(target.Config.PostgreSQLURL),
		pgdriver.WithReadTimeout(3*time.Minute), pgdriver.WithWriteTimeout(time.Minute)))
	_, err := ckpt.ExecContext(ctx, "CHECKPOINT")
	ckpt.Close()
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	if err := az.db.NewRaw(`SELECT c.oid::regclass::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i', 't')`).Scan(ctx, &rels); err != nil {
		t.Fatal(err)
	}
	for _, r := range rels {
		var b []byte
		if err := az.db.NewRaw("SELECT pg_read_binary_file(pg_relation_filepath(?::regclass))", r).Scan(ctx, &b); err != nil {
			t.Fatalf("reading %s: %v", r, err)
		}
		out[r] = b
	}
	if len(out) < 5 {
		t.Fatalf("only %d relations read", len(out))
	}
	return out
}

func assertNoPlain(t *testing.T, files map[string][]byte, want bool) {
	t.Helper()
	found := false
	for name, b := range files {
		for _, mark := range []string{plainMarkUser, plainMarkPerm, "edits things"} {
			if bytes.Contains(b, []byte(mark)) {
				found = true
				if !want {
					t.Errorf("%q is still in %q", mark, name)
				}
			}
		}
	}
	if want && !found {
		t.Fatal("the plain names are not in the files before conversion: the check proves nothing")
	}
}

// TestEncryptionConvertsPlainStore: turning encryption on converts the
// plain rows, resumably (a crash after two batches is finished by the next
// start), and leaves no plaintext name in the database files.
func TestEncryptionConvertsPlainStore(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		key := newKey()
		const users = 2500 // three batches of memberships
		loadPlain(t, target, key, users)
		{
			db := storagetest.OpenTarget(t, target)
			az := &Authz{db: db}
			assertNoPlain(t, storeFiles(t, az, target), true)
			db.Close()
		}

		restore := crashAfter(t, 2)
		cfg := configFor(target)
		encrypted(testPassphrase)(&cfg)
		if az, err := Open(context.Background(), cfg); !errors.Is(err, errCrash) {
			if az != nil {
				az.Close()
			}
			t.Fatalf("Open with the crash hook = %v, want the crash", err)
		}
		restore()
		{
			db := storagetest.OpenTarget(t, target)
			v, ok, err := storage.GetSetting(context.Background(), db, storage.SettingReencodeProgress)
			db.Close()
			if err != nil || !ok || strings.Contains(v, "user-") {
				t.Fatalf("no progress marker after the crash: %q %v %v", v, ok, err)
			}
		}

		var log syncBuffer
		az := openTarget(t, target, func(c *Config) {
			encrypted(testPassphrase)(c)
			c.Logger = slog.New(slog.NewTextHandler(&log, nil))
		})
		if !strings.Contains(log.String(), "resuming an interrupted pass") {
			t.Errorf("the second start did not resume: %s", log.String())
		}
		c := mustClient(t, az, key)
		checkConverted(t, c, users)
		assertNoPlain(t, storeFiles(t, az, target), false)

		// A replica still running without the key: its open is refused,
		// and a write of one that opened before is refused in its own
		// transaction (503), not written in plain.
		if _, err := Open(context.Background(), configFor(target)); err == nil {
			t.Fatal("a start without encryption on the converted store succeeded")
		}
	})
}

// A replica that started without encryption before another converted the
// store refuses its writes (503) from the conversion on: its write
// transaction reads the store's encryption state.
func TestPlainReplicaWriteRefusedAfterConversion(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		plainAZ := openTarget(t, target, nil)
		plain := mustClient(t, plainAZ, key)
		expect(t, "add_role before", true)(plain.AddRole(ctx, "editor", ""))
		openTarget(t, target, encrypted(testPassphrase))
		_, err := plain.AddMembership(ctx, "sara", "editor")
		if !errors.Is(err, ErrEncryptionRequired) || !errors.Is(err, ErrUnavailable) {
			t.Fatalf("plain write after conversion = %v, want ErrEncryptionRequired (503)", err)
		}
		var n int
		if err := plainAZ.db.NewRaw("SELECT count(*) FROM rolegate_memberships WHERE user_name = 'sara'").Scan(ctx, &n); err != nil || n != 0 {
			t.Fatalf("plain row written: %d %v", n, err)
		}
		// Writes that find nothing to do are refused too: their audit
		// records would carry user names in plain text. The refusals it
		// records leave the names out (role names are plain by design).
		var audits int
		if err := plainAZ.db.NewRaw("SELECT count(*) FROM rolegate_audit").Scan(ctx, &audits); err != nil {
			t.Fatal(err)
		}
		if _, err := plain.DelRole(ctx, "editor"); !errors.Is(err, ErrEncryptionRequired) {
			t.Errorf("plain delete of a converted role = %v, want ErrEncryptionRequired", err)
		}
		if _, err := plain.DelMembership(ctx, "nobody", "editor"); !errors.Is(err, ErrEncryptionRequired) {
			t.Errorf("plain no-op delete = %v, want ErrEncryptionRequired", err)
		}
		if _, err := plain.Batch(ctx, []Operation{{Op: "del_role", Role: "ghost"}}); !errors.Is(err, ErrEncryptionRequired) {
			t.Errorf("plain no-op batch = %v, want ErrEncryptionRequired", err)
		}
		if err := plainAZ.db.NewRaw("SELECT count(*) FROM rolegate_audit WHERE resource LIKE '%sara%' OR resource LIKE '%nobody%'").Scan(ctx, &n); err != nil || n != 0 {
			var rs []string
			_ = plainAZ.db.NewRaw("SELECT action || ' ' || resource || ' ' || outcome FROM rolegate_audit").Scan(ctx, &rs)
			t.Errorf("%d audit records with a plain name: %v %q", n, err, rs)
		}
	})
}

// TestEncryptionRotation: AUTH_ENCRYPTION_KEY_PREVIOUS re-encrypts every
// value under the new key, resumably; values read under either key while
// it runs; afterwards the key check value is the new key's and the old
// key alone no longer opens the store.
func TestEncryptionRotation(t *testing.T) {
	old := keyring.RotationRetry
	keyring.RotationRetry = time.Minute // no retry: the crash stays until the next start
	t.Cleanup(func() { keyring.RotationRetry = old })
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		const users = 2500
		loadPlain(t, target, key, users)
		old := openTarget(t, target, encrypted(testPassphrase))
		checkConverted(t, mustClient(t, old, key), users)
		old.Close()

		// The pass runs in the background and crashes after one batch of
		// memberships; Open has returned, serving with both keys.
		crashed := make(chan struct{})
		var once sync.Once
		t.Cleanup(func() { keyring.ReencodeHook = nil })
		keyring.ReencodeHook = func(k *keyring.Keys, ctx context.Context, batch int) error {
			if batch < 2 {
				return nil
			}
			once.Do(func() { close(crashed) })
			return errCrash
		}
		az := openTarget(t, target, rotateTo)
		select {
		case <-crashed:
		case <-time.After(60 * time.Second):
			t.Fatal("the pass did not run")
		}
		checkConverted(t, mustClient(t, az, key), users)
		az.Close()
		keyring.ReencodeHook = nil

		// Mid-rotation, the old key alone is refused (writers must use the new).
		if _, err := Open(ctx, oldKeyOnly(target)); err == nil {
			t.Fatal("the old key alone opened a store being rotated")
		}
		az = openTarget(t, target, rotateTo)
		waitRotated(t, az)
		checkConverted(t, mustClient(t, az, key), users)
		az.Close()

		az = openTarget(t, target, encrypted(rotatedPass))
		checkConverted(t, mustClient(t, az, key), users)
		az.Close()
		if _, err := Open(ctx, oldKeyOnly(target)); err == nil || !strings.Contains(err.Error(), "not the key") {
			t.Fatalf("the old key alone after rotation: %v, want the key check refusal", err)
		}
	})
}

// TestEncryptSwappedCiphertextRefused: a ciphertext is bound to its column
// and client. Copied from a description (or a member's name) into a
// permission, or from one client's memberships to another's, it grants
// nothing and fails to decrypt where it is listed.
func TestEncryptSwappedCiphertextRefused(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		az := openTarget(t, target, encrypted(testPassphrase))
		a, b := mustClient(t, az, newKey()), mustClient(t, az, newKey())
		for _, c := range []*Client{a, b} {
			expect(t, "add_role", true)(c.AddRole(ctx, "editor", "admin"))
			expect(t, "add_permission", true)(c.AddPermission(ctx, "editor", "edit"))
			expect(t, "add_membership", true)(c.AddMembership(ctx, "alice", "editor"))
		}
		expect(t, "add_membership mallory", true)(a.AddMembership(ctx, "mallory", "editor"))
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := az.db.NewRaw(q, args...).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		var desc string
		if err := az.db.NewRaw("SELECT description FROM rolegate_roles WHERE ns = ? AND name = 'editor'", a.scope.NS).Scan(ctx, &desc); err != nil {
			t.Fatal(err)
		}
		// A description ("admin") and a member's name ("alice") copied
		// into the permission column.
		exec("INSERT INTO rolegate_permissions (ns, role, name) VALUES (?, 'editor', ?)", a.scope.NS, desc)
		exec("INSERT INTO rolegate_permissions (ns, role, name) VALUES (?, 'editor', ?)", a.scope.NS, a.scope.AuditUser("alice"))
		// Refused: not granted, or an error (the cold read decrypts every
		// grant of the role), never true.
		refused := func(what string, ok bool, err error) {
			t.Helper()
			if ok || err != nil && !errors.Is(err, cipher.ErrTampered) {
				t.Fatalf("%s = %v, %v; want false or ErrTampered", what, ok, err)
			}
		}
		a.cache.Flush()
		ok, err := a.UserHasPermission(ctx, "alice", "admin")
		refused("alice has admin through a copied description", ok, err)
		ok, err = a.UserHasPermission(ctx, "alice", "alice")
		refused("alice has alice through a copied user name", ok, err)
		if perms, err := a.GetPermissions(ctx, "editor"); !errors.Is(err, cipher.ErrTampered) {
			t.Fatalf("get_permissions with copied values = %v, %v; want ErrTampered", perms, err)
		}
		// Client a's member copied into client b's memberships.
		exec("INSERT INTO rolegate_memberships (ns, user_name, role) VALUES (?, ?, 'editor')", b.scope.NS, a.scope.AuditUser("mallory"))
		b.cache.Flush()
		ok, err = b.UserHasPermission(ctx, "mallory", "edit")
		refused("mallory in b through a copied membership", ok, err)
		if members, err := b.GetRoleMembers(ctx, "editor"); !errors.Is(err, cipher.ErrTampered) {
			t.Fatalf("get_role_members with a copied value = %v, %v; want ErrTampered", members, err)
		}
	})
}

// A plain write in flight when encryption is turned on (it passed the
// encryption-state check, not yet committed) is waited for, and its row
// converted: nothing plain is left behind the pass.
func TestConversionWaitsForWriteInFlight(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		plainAZ := openTarget(t, target, nil)
		plain := mustClient(t, plainAZ, key)
		expect(t, "add_role", true)(plain.AddRole(ctx, "editor", ""))
		tx, err := plainAZ.db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		expect(t, "membership in flight", true)(storage.AddMembership(ctx, tx, plain.scope, "", plainMarkUser, "editor"))
		if _, err := storage.RecordChange(ctx, tx, plain.scope, storage.Change{User: plainMarkUser}); err != nil {
			t.Fatal(err)
		}
		opened := make(chan *Authz, 1)
		go func() {
			cfg := configFor(target)
			encrypted(testPassphrase)(&cfg)
			az, err := Open(ctx, cfg)
			if err != nil {
				t.Error(err)
			}
			opened <- az
		}()
		select {
		case az := <-opened:
			if az != nil {
				az.Close()
			}
			t.Fatal("the conversion did not wait for the write in flight")
		case <-time.After(500 * time.Millisecond):
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		az := <-opened
		if az == nil {
			return
		}
		defer az.Close()
		var n int
		if err := az.db.NewRaw("SELECT count(*) FROM rolegate_memberships WHERE user_name NOT LIKE '/e%'").Scan(ctx, &n); err != nil || n != 0 {
			t.Fatalf("%d plain memberships left (%v)", n, err)
		}
		expect(t, "the converted membership reads", true)(mustClient(t, az, key).HasMembership(ctx, plainMarkUser, "editor"))
	})
}

// A store from the mixed mode of earlier releases may hold a plain name
// and its encrypted twin (format 1) in one role: the conversion keeps one.
func TestConversionCollapsesTwins(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		db := storagetest.OpenTarget(t, target)
		old, err := cipher.New(testPassphrase)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := storage.GetOrInitSetting(ctx, db, keyring.SettingCheck, func() (string, error) { return old.CheckValue(), nil }); err != nil {
			t.Fatal(err)
		}
		ns := storage.NamespaceOf(key)
		raw, _ := hex.DecodeString(ns)
		v1 := old.ForClient(raw)
		enc := storage.Scope{NS: ns, Users: v1, Permissions: v1}
		plain := storage.Scope{NS: ns}
		for _, f := range []func() (bool, error){
			func() (bool, error) { return storage.AddRole(ctx, db, plain, "editor", "") },
			func() (bool, error) { return storage.AddPermission(ctx, db, plain, "editor", "edit") },
			func() (bool, error) { return storage.AddPermission(ctx, db, enc, "editor", "edit") },
			func() (bool, error) { return storage.AddMembership(ctx, db, plain, "", "alice", "editor") },
			func() (bool, error) { return storage.AddMembership(ctx, db, enc, "", "alice", "editor") },
			func() (bool, error) { return storage.AddMembership(ctx, db, plain, "eu", "bob", "editor") },
			func() (bool, error) { return storage.AddMembership(ctx, db, enc, "eu", "bob", "editor") },
		} {
			if created, err := f(); err != nil || !created {
				t.Fatalf("seed: %v %v", created, err)
			}
		}
		db.Close()

		az := openTarget(t, target, encrypted(testPassphrase))
		c := mustClient(t, az, key)
		perms, err := c.GetPermissions(ctx, "editor")
		assertList(t, "permissions", perms, err, "edit")
		members, err := c.GetRoleMembers(ctx, "editor")
		assertList(t, "members", members, err, "alice")
		var n int
		if err := az.db.NewRaw(`SELECT (SELECT count(*) FROM rolegate_permissions) + (SELECT count(*) FROM rolegate_memberships)
			+ (SELECT count(*) FROM rolegate_scoped_memberships)`).Scan(ctx, &n); err != nil || n != 3 {
			t.Fatalf("%d rows after the conversion (%v), want 3: one of each twin", n, err)
		}
		expect(t, "scoped bob", true)(c.UserHasPermissionIn(ctx, "eu", "bob", "edit"))
	})
}
