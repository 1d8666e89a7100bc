package authz

import (
	"context"
	"github.com/rolegate/rolegate/authz/internal/keyring"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

const rotatedPass = "the new passphrase, rotated in"

// rotateTo configures the new key with the test passphrase as the previous one.
func rotateTo(c *Config) {
	encrypted(rotatedPass)(c)
	c.EncryptionKeyPrevious = testPassphrase
}

// oldKeyOnly is a Config with the test passphrase alone.
func oldKeyOnly(target storagetest.Target) Config {
	c := configFor(target)
	encrypted(testPassphrase)(&c)
	return c
}

// waitRotated waits until the store is under az's key and the rotation
// lease is given up (the background pass has ended).
func waitRotated(t *testing.T, az *Authz) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(90 * time.Second)
	for {
		check, _, err := storage.GetSetting(ctx, az.db, keyring.SettingCheck)
		if err != nil {
			t.Fatal(err)
		}
		_, leased, err := storage.GetSetting(ctx, az.db, keyring.SettingRotationLease)
		if err != nil {
			t.Fatal(err)
		}
		if check == az.keys.Cipher().CheckValue() && !leased {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the rotation did not finish")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// countMemberships counts the global memberships of ns whose stored user
// name starts with prefix ("" for all).
func countMemberships(t *testing.T, az *Authz, ns, prefix string) int {
	t.Helper()
	n, err := az.db.NewSelect().Table("rolegate_memberships").Where("ns = ? AND user_name LIKE ?", ns, prefix+"%").Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// TestRotationWhileServing: Open with both keys returns at once and serves
// while the pass runs in the background: checks answer for rotated and
// unrotated rows, writes and deletes are accepted (and stay right after
// the pass: no twins, one form), a second replica with both keys starts
// promptly, a Close mid-pass is resumed by the next start, and afterwards
// the new key alone opens and the old one alone is refused.
func TestRotationWhileServing(t *testing.T) {
	old := keyring.RotationRetry
	keyring.RotationRetry = 100 * time.Millisecond
	t.Cleanup(func() { keyring.RotationRetry = old; keyring.ReencodeHook = nil })
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		const users = 2500
		loadPlain(t, target, key, users)
		az0 := openTarget(t, target, encrypted(testPassphrase))
		checkConverted(t, mustClient(t, az0, key), users)
		az0.Close()

		// The first replica pauses its pass after batch 2 (the grants, then
		// 1,000 of the memberships) until Closed.
		paused := make(chan *keyring.Keys, 1)
		var once atomic.Bool
		keyring.ReencodeHook = func(k *keyring.Keys, ctx context.Context, batch int) error {
			if batch != 2 || !once.CompareAndSwap(false, true) {
				return nil
			}
			paused <- k
			<-ctx.Done()
			return ctx.Err()
		}
		cfg := configFor(target)
		rotateTo(&cfg)
		start := time.Now()
		az1, err := Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { az1.Close() })
		select {
		case p := <-paused:
			if p != az1.keys {
				t.Fatal("another Authz ran the pass")
			}
		case <-time.After(60 * time.Second):
			t.Fatal("the pass did not reach batch 1")
		}
		t.Logf("open and batch 1: %v", time.Since(start))
		c := mustClient(t, az1, key)
		ns := c.scope.NS
		gen1, prev1 := az1.keys.Generations()
		newPrefix, oldPrefix := "/e"+strconv.Itoa(gen1)+"/", "/e"+strconv.Itoa(prev1)+"/"
		if n, o := countMemberships(t, az1, ns, newPrefix), countMemberships(t, az1, ns, oldPrefix); n == 0 || o == 0 {
			t.Fatalf("paused mid-pass: %d rows under the new key, %d under the old; want both", n, o)
		}
		// Every user answers, rotated or not.
		for i := range users {
			u := "user-" + strconv.Itoa(i)
			if ok, err := c.UserHasPermission(ctx, u, plainMarkPerm); err != nil || !ok {
				t.Fatalf("during rotation: %s has permission = %v, %v", u, ok, err)
			}
		}
		checkConverted(t, c, users)
		// Writes and deletes during the pass, and twins a writer under the
		// new key may leave beside unrotated rows.
		expect(t, "add_membership newcomer", true)(c.AddMembership(ctx, "newcomer", "editor"))
		for i := 1; i <= 40; i++ {
			expect(t, "del_membership", true)(c.DelMembership(ctx, "user-"+strconv.Itoa(i), "editor"))
		}
		twins := 0
		for i := 100; i < 200; i++ {
			res, err := az1.db.NewRaw("INSERT INTO rolegate_memberships (ns, user_name, role) VALUES (?, ?, 'editor') ON CONFLICT DO NOTHING",
				ns, c.scope.Users.Encrypt("user-"+strconv.Itoa(i))).Exec(ctx)
			if err != nil {
				t.Fatal(err)
			}
			n, _ := res.RowsAffected()
			twins += int(n)
		}
		if twins == 0 {
			t.Fatal("no twin made: every row was rotated in batch 1?")
		}
		c.cache.Flush()
		for _, u := range []string{"newcomer", "user-150", "user-" + strconv.Itoa(users-1)} {
			expect(t, "has_permission "+u, true)(c.UserHasPermission(ctx, u, plainMarkPerm))
		}
		expect(t, "has_permission deleted", false)(c.UserHasPermission(ctx, "user-7", plainMarkPerm))

		// A second replica with both keys starts promptly and answers.
		start = time.Now()
		az2 := openTarget(t, target, rotateTo)
		if d := time.Since(start); d > 15*time.Second {
			t.Fatalf("a second replica took %v to open during the rotation", d)
		}
		c2 := mustClient(t, az2, key)
		expect(t, "replica: newcomer", true)(c2.UserHasPermission(ctx, "newcomer", plainMarkPerm))
		expect(t, "replica: deleted", false)(c2.UserHasPermission(ctx, "user-7", plainMarkPerm))
		expect(t, "replica: last", true)(c2.UserHasPermission(ctx, "user-"+strconv.Itoa(users-1), plainMarkPerm))
		az2.Close()
		// The new key alone cannot read the rows not yet rotated: refused.
		if _, err := Open(ctx, func() Config { c := configFor(target); encrypted(rotatedPass)(&c); return c }()); err == nil {
			t.Fatal("the new key alone opened a store mid-rotation")
		}

		// Close mid-pass; the next start resumes and finishes.
		az1.Close()
		if _, err := Open(ctx, oldKeyOnly(target)); err == nil {
			t.Fatal("the old key alone opened a store being rotated")
		}
		az3 := openTarget(t, target, rotateTo)
		waitRotated(t, az3)
		c3 := mustClient(t, az3, key)
		want := users + 1 - 40 + 1 // loaded, the mark user, deleted, newcomer
		if all, n := countMemberships(t, az3, ns, ""), countMemberships(t, az3, ns, newPrefix); all != want || n != want {
			t.Fatalf("after the pass: %d memberships, %d under the new key; want %d, all", all, n, want)
		}
		expect(t, "after: newcomer", true)(c3.UserHasPermission(ctx, "newcomer", plainMarkPerm))
		expect(t, "after: deleted", false)(c3.UserHasPermission(ctx, "user-7", plainMarkPerm))
		expect(t, "after: twin", true)(c3.UserHasPermission(ctx, "user-150", plainMarkPerm))
		az3.Close()

		az4 := openTarget(t, target, encrypted(rotatedPass))
		c4 := mustClient(t, az4, key)
		expect(t, "new key alone: newcomer", true)(c4.UserHasPermission(ctx, "newcomer", plainMarkPerm))
		expect(t, "new key alone: del twin", true)(c4.DelMembership(ctx, "user-150", "editor"))
		expect(t, "new key alone: twin gone", false)(c4.UserHasPermission(ctx, "user-150", plainMarkPerm))
		az4.Close()
		if _, err := Open(ctx, oldKeyOnly(target)); err == nil || !strings.Contains(err.Error(), "not the key") {
			t.Fatalf("the old key alone after rotation: %v, want the key check refusal", err)
		}
	})
}

// TestRotationResumedAfterDeadHolder: a lease left by a process that died
// mid-pass keeps the pass from running until it expires; the serving
// replica's periodic try then takes it and finishes, while writers add
// and delete memberships the whole time. Afterwards every row is in one
// form, with no twins, and the writers' last word holds.
func TestRotationResumedAfterDeadHolder(t *testing.T) {
	old := keyring.RotationRetry
	keyring.RotationRetry = 100 * time.Millisecond
	t.Cleanup(func() { keyring.RotationRetry = old })
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		const users = 2500
		loadPlain(t, target, key, users)
		az0 := openTarget(t, target, encrypted(testPassphrase))
		expiry := time.Now().Add(time.Second).UnixMilli()
		if err := keyring.SetSetting(ctx, az0.db, keyring.SettingRotationLease, "deadbeef/"+strconv.FormatInt(expiry, 10)); err != nil {
			t.Fatal(err)
		}
		az0.Close()

		az := openTarget(t, target, rotateTo)
		c := mustClient(t, az, key)
		if check, _, _ := storage.GetSetting(ctx, az.db, keyring.SettingCheck); check == az.keys.Cipher().CheckValue() {
			t.Fatal("the pass ran under another holder's lease")
		}
		// Writers: each owns users; the last op per user is remembered.
		stop := make(chan struct{})
		type result struct{ present map[string]bool }
		results := make(chan result, 4)
		for w := range 4 {
			go func() {
				present := map[string]bool{}
				for i := 0; ; i++ {
					select {
					case <-stop:
						results <- result{present}
						return
					default:
					}
					u := "user-" + strconv.Itoa(w+4*(i%200)) // existing users
					if i%3 == 0 {
						u = "w" + strconv.Itoa(w) + "-" + strconv.Itoa(i%50) // new ones
					}
					var err error
					if i%2 == 0 {
						_, err = c.DelMembership(ctx, u, "editor")
						present[u] = false
					} else {
						_, err = c.AddMembership(ctx, u, "editor")
						present[u] = true
					}
					if err != nil {
						t.Errorf("write during the rotation: %v", err)
						results <- result{present}
						return
					}
				}
			}()
		}
		waitRotated(t, az)
		close(stop)
		want := map[string]bool{}
		for range 4 {
			for u, p := range (<-results).present {
				want[u] = p
			}
		}
		c.cache.Flush()
		for u, p := range want {
			expect(t, "after: "+u, p)(c.HasMembership(ctx, u, "editor"))
		}
		ns := c.scope.NS
		cur, _ := az.keys.Generations()
		gen := "/e" + strconv.Itoa(cur) + "/"
		if all, n := countMemberships(t, az, ns, ""), countMemberships(t, az, ns, gen); all != n {
			t.Fatalf("after the pass: %d memberships, %d under the new key", all, n)
		}
		members, err := c.GetRoleMembers(ctx, "editor")
		if err != nil {
			t.Fatal(err)
		}
		if all := countMemberships(t, az, ns, ""); len(members) != all {
			t.Fatalf("members %d, rows %d: twins left", len(members), all)
		}
		az.Close()
	})
}
