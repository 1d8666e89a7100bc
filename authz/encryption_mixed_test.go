package authz

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/cipher"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// namesOnly turns encryption on for names, not descriptions.
func namesOnly(c *Config) {
	c.EnableEncryption = true
	c.EncryptionKey = testPassphrase
}

// While encryption is being turned on, a replica still running without it
// writes plaintext rows after a replica with encryption has started. Once
// the change log has told the encrypted replica that plain names were
// written, it finds them, counts them as the same grant or membership,
// revokes remove them, and nothing revoked comes back.
func TestEncryptionBesidePlainReplica(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		// Its revision poll, which would notice encryption turned on and
		// refuse writes, is slowed to an hour: this is the moment before.
		plain := mustClient(t, openTarget(t, target, func(c *Config) { c.RevisionCheckInterval = time.Hour }), key)
		if _, err := plain.AddRole(ctx, "editor", ""); err != nil {
			t.Fatal(err)
		}
		encAZ := openTarget(t, target, func(c *Config) {
			encrypted(testPassphrase)(c)
			c.RevisionCheckInterval = 50 * time.Millisecond
		})
		enc := mustClient(t, encAZ, key)
		eventually(t, 2*time.Second, "the encrypted replica finds no plain names", func() bool { return !enc.plain.may.Load() })

		// Written in plain after the encrypted replica started.
		expect(t, "add_permission on the plain replica", true)(plain.AddPermission(ctx, "editor", "perm-x"))
		expect(t, "add_membership on the plain replica", true)(plain.AddMembership(ctx, "alice", "editor"))
		eventually(t, 2*time.Second, "the encrypted replica learns that plain names were written", func() bool { return enc.plain.may.Load() })
		expect(t, "has_permission", true)(enc.HasPermission(ctx, "editor", "perm-x"))
		expect(t, "has_membership", true)(enc.HasMembership(ctx, "alice", "editor"))
		expect(t, "user_has_permission", true)(enc.UserHasPermission(ctx, "alice", "perm-x"))
		expect(t, "add_permission of a plaintext grant creates", false)(enc.AddPermission(ctx, "editor", "perm-x"))
		expect(t, "add_membership of a plaintext membership creates", false)(enc.AddMembership(ctx, "alice", "editor"))

		expect(t, "del_permission", true)(enc.DelPermission(ctx, "editor", "perm-x"))
		expect(t, "del_membership", true)(enc.DelMembership(ctx, "alice", "editor"))
		if left := rawStrings(t, encAZ, "SELECT name FROM rolegate_permissions WHERE ns = ?", enc.scope.NS); len(left) != 0 {
			t.Fatalf("grants left after the revoke: %q", left)
		}
		if left := rawStrings(t, encAZ, "SELECT user_name FROM rolegate_memberships WHERE ns = ?", enc.scope.NS); len(left) != 0 {
			t.Fatalf("memberships left after the removal: %q", left)
		}

		// A restarted encrypted replica agrees: nothing came back.
		encAZ.Close()
		again := mustClient(t, openTarget(t, target, encrypted(testPassphrase)), key)
		expect(t, "user_has_permission after restart", false)(again.UserHasPermission(ctx, "alice", "perm-x"))
	})
}

// An encrypted client on a store holding plain names (written before
// encryption was on) keeps looking for both forms.
func TestEncryptedClientKeepsFindingOldPlainNames(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		plainAZ, _ := plainEditor(t, target, key, "sara")
		plainAZ.Close()

		enc := mustClient(t, openTarget(t, target, encrypted(testPassphrase)), key)
		enc.recheckPlain(ctx) // what the background check does
		if !enc.plain.may.Load() {
			t.Fatal("plain names in the store, and the client stopped looking for them")
		}
		expect(t, "has_permission", true)(enc.HasPermission(ctx, "editor", "edit"))
		expect(t, "user_has_permission", true)(enc.UserHasPermission(ctx, "sara", "edit"))
		expect(t, "add_membership of the plain membership creates", false)(enc.AddMembership(ctx, "sara", "editor"))
	})
}

// Descriptions written encrypted still read plain after
// AUTH_ENCRYPT_DESCRIPTIONS is turned off; new ones are then written plain.
func TestDescriptionsAfterEncryptDescriptionsOff(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		az := openTarget(t, target, encrypted(testPassphrase))
		if _, err := mustClient(t, az, key).AddRole(ctx, "editor", "who edits"); err != nil {
			t.Fatal(err)
		}
		az.Close()
		az2 := openTarget(t, target, namesOnly)
		c := mustClient(t, az2, key)
		if _, err := c.AddRole(ctx, "viewer", "who views"); err != nil {
			t.Fatal(err)
		}
		roles, err := c.Roles(ctx)
		if err != nil || len(roles) != 2 || roles[0].Description != "who edits" || roles[1].Description != "who views" {
			t.Fatalf("Roles = %+v, %v; want both descriptions plain", roles, err)
		}
		stored := rawStrings(t, az2, "SELECT description FROM rolegate_roles WHERE ns = ? ORDER BY name", c.scope.NS)
		if !cipher.IsEncrypted(stored[0]) || stored[1] != "who views" {
			t.Fatalf("stored descriptions %q: want the first encrypted, the second plain", stored)
		}
	})
}

// A description that would read as an encrypted value is refused, with
// encryption on or off.
func TestDescriptionWithEncryptionPrefixRefused(t *testing.T) {
	for _, m := range encryptModes {
		t.Run(m.name, func(t *testing.T) {
			az := openTarget(t, storagetest.SQLite(t), m.mod)
			c := mustClient(t, az, newKey())
			if _, err := c.AddRole(context.Background(), "evil", cipher.Prefix+"AAAA"); !errors.Is(err, ErrInvalidName) {
				t.Fatalf("AddRole with a %s description: %v, want ErrInvalidName", cipher.Prefix, err)
			}
			if roles, err := c.Roles(context.Background()); err != nil || len(roles) != 0 {
				t.Fatalf("Roles = %+v, %v; want none", roles, err)
			}
		})
	}
}

// A store where encryption was turned on but nothing encrypted was ever
// written may start without encryption; once it holds an encrypted value,
// it may not.
func TestStartWithoutEncryptionAfterTrying(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		az := openTarget(t, target, encrypted(testPassphrase))
		if _, err := mustClient(t, az, key).AddRole(ctx, "editor", ""); err != nil {
			t.Fatal(err)
		}
		az.Close()

		plain := openTarget(t, target, nil)
		c := mustClient(t, plain, key)
		roles, err := c.Roles(ctx)
		if err != nil || len(roles) != 1 {
			t.Fatalf("Roles without encryption = %+v, %v", roles, err)
		}
		plain.Close()

		az = openTarget(t, target, encrypted(testPassphrase))
		if _, err := mustClient(t, az, key).AddMembership(ctx, "sara", "editor"); err != nil {
			t.Fatal(err)
		}
		az.Close()
		cfg := configFor(target)
		if _, err := Open(ctx, cfg); err == nil {
			t.Fatal("a store holding an encrypted name opened without encryption")
		}
	})
}

// expect is assertBool for a call's two results: expect(t, name, want)(call()).
func expect(t testing.TB, name string, want bool) func(bool, error) {
	return func(got bool, err error) {
		t.Helper()
		assertBool(t, name, got, err, want)
	}
}

// A replica running without encryption notices when another turns it on,
// and refuses writes from then on (503); it still answers reads.
func TestPlainReplicaRefusesWritesOnceEncryptionIsOn(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		plainAZ := openTarget(t, target, func(c *Config) { c.RevisionCheckInterval = 50 * time.Millisecond })
		plain := mustClient(t, plainAZ, key)
		expect(t, "add_role before", true)(plain.AddRole(ctx, "editor", ""))

		openTarget(t, target, encrypted(testPassphrase))
		eventually(t, 2*time.Second, "the plain replica refuses writes", func() bool {
			_, err := plain.AddRole(ctx, "viewer", "")
			return errors.Is(err, ErrEncryptionRequired)
		})
		_, err := plain.AddMembership(ctx, "sara", "editor")
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("AddMembership = %v, want an ErrUnavailable", err)
		}
		if status, _ := statusOf(err); status != 503 {
			t.Fatalf("status %d, want 503", status)
		}
		expect(t, "has_membership still answers", false)(plain.HasMembership(ctx, "sara", "editor"))
	})
}

// A replica still running without encryption drops a user whose membership
// an encrypted replica removed, though the change log names the user
// encrypted: it cannot read the name, so it drops everyone.
func TestPlainReplicaSeesEncryptedRevoke(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		plainAZ, plain := plainEditor(t, target, key, "alice")
		enc := mustClient(t, openTarget(t, target, encrypted(testPassphrase)), key)
		expect(t, "the plain replica grants alice", true)(plain.UserHasPermission(ctx, "alice", "edit"))
		plainAZ.checkRevisions(ctx, nil)

		expect(t, "del_membership", true)(enc.DelMembership(ctx, "alice", "editor"))
		plainAZ.checkRevisions(ctx, nil)
		expect(t, "the plain replica after the revoke elsewhere", false)(plain.UserHasPermission(ctx, "alice", "edit"))
	})
}

// plainEditor opens a replica without encryption on target, where the role
// editor holds edit and user is its member.
func plainEditor(t *testing.T, target storagetest.Target, key, user string) (*Authz, *Client) {
	t.Helper()
	ctx := context.Background()
	az := openTarget(t, target, nil)
	c := mustClient(t, az, key)
	expect(t, "add_role", true)(c.AddRole(ctx, "editor", ""))
	expect(t, "add_permission", true)(c.AddPermission(ctx, "editor", "edit"))
	expect(t, "add_membership", true)(c.AddMembership(ctx, user, "editor"))
	return az, c
}

// A client handle dropped from the client table (more keys than
// AUTH_MAX_CLIENTS) is followed by no revision check, so it looks for
// plain names for good: a plain grant written elsewhere afterwards is
// found, and revoked.
func TestDroppedHandleLooksForPlainNames(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		encAZ := openTarget(t, target, func(c *Config) {
			encrypted(testPassphrase)(c)
			c.MaxClients = 10
		})
		enc := mustClient(t, encAZ, key)
		eventually(t, 2*time.Second, "the client finds no plain names", func() bool { return !enc.plain.may.Load() })
		enc.used.Store(1) // the least recently used, whatever the clock's resolution
		for range 30 {
			mustClient(t, encAZ, newKey())
		}
		if !enc.cache.Closed() {
			t.Fatal("the handle was not dropped from the client table")
		}
		if !enc.plain.may.Load() {
			t.Fatal("a dropped handle still looks for encrypted names only")
		}

		plain := mustClient(t, openTarget(t, target, func(c *Config) { c.RevisionCheckInterval = time.Hour }), key)
		expect(t, "add_role on the plain replica", true)(plain.AddRole(ctx, "editor", ""))
		expect(t, "add_permission on the plain replica", true)(plain.AddPermission(ctx, "editor", "perm-x"))
		expect(t, "has_permission on the dropped handle", true)(enc.HasPermission(ctx, "editor", "perm-x"))
		expect(t, "del_permission on the dropped handle", true)(enc.DelPermission(ctx, "editor", "perm-x"))
		if left := rawStrings(t, encAZ, "SELECT name FROM rolegate_permissions WHERE ns = ?", enc.scope.NS); len(left) != 0 {
			t.Fatalf("grants left after the revoke: %q", left)
		}
	})
}

// More than maxLocalRevisions of our own writes above a foreign revision
// nobody has read skip it without reading its change log entry: the
// client must then look for plain names again, since that revision may
// have written some.
func TestOwnWriteOverflowLooksForPlainNames(t *testing.T) {
	target := storagetest.SQLite(t)
	ctx := context.Background()
	key := newKey()
	slow := func(c *Config) { c.RevisionCheckInterval = time.Hour }
	encAZ := openTarget(t, target, func(c *Config) { encrypted(testPassphrase)(c); slow(c) })
	enc := mustClient(t, encAZ, key)
	expect(t, "add_role", true)(enc.AddRole(ctx, "editor", ""))
	encAZ.checkRevisions(ctx, nil)
	eventually(t, 2*time.Second, "the client finds no plain names", func() bool { return !enc.plain.may.Load() })

	plain := mustClient(t, openTarget(t, target, slow), key)
	expect(t, "add_permission on the plain replica", true)(plain.AddPermission(ctx, "editor", "perm-x"))
	for i := range maxLocalRevisions + 1 {
		expect(t, "add_role", true)(enc.AddRole(ctx, "role-"+strconv.Itoa(i), ""))
	}
	encAZ.checkRevisions(ctx, nil)
	expect(t, "has_permission of the grant written in plain", true)(enc.HasPermission(ctx, "editor", "perm-x"))
}
