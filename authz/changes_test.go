package authz

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/cache"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// A membership changed on one replica drops only that user from another
// replica's cache (read from the change log); a grant drops only that
// role's permission set (its members' entries stay), a role added drops
// no one, and revisions without a change log entry flush the cache. On both databases, with names plain and
// encrypted; the change log never holds an encrypted name's plaintext.
func TestRemoteChangesDropOnlyWhatChanged(t *testing.T) {
	for _, m := range encryptModes {
		t.Run(m.name, func(t *testing.T) {
			storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
				testRemoteChanges(t, target, m.mod)
			})
		})
	}
}

func testRemoteChanges(t *testing.T, target storagetest.Target, mod func(*Config)) {
	interval := 100 * time.Millisecond
	if target.Name == "postgresql" {
		interval = time.Minute // only the notification can explain success
	}
	cfg := func(c *Config) {
		c.RevisionCheckInterval = interval
		if mod != nil {
			mod(c)
		}
	}
	a, b := openTarget(t, target, cfg), openTarget(t, target, cfg)
	ctx := context.Background()
	key := newKey()
	ca, cb := mustClient(t, a, key), mustClient(t, b, key)
	cb.AddRole(ctx, "editor", "")
	cb.AddPermission(ctx, "editor", "edit")
	cb.AddMembership(ctx, "sara", "editor")
	cb.AddMembership(ctx, "jack", "editor")
	time.Sleep(50 * time.Millisecond) // let a's listener subscribe

	// caughtUp: a has seen every revision b wrote.
	caughtUp := func() bool {
		// Under the watcher's lock: a check in progress has observed the
		// revision but may not have dropped what it changed yet.
		a.feed.Lock()
		defer a.feed.Unlock()
		revs, err := storage.Revisions(ctx, a.db, []string{ca.scope.NS})
		if err != nil {
			t.Fatal(err)
		}
		return ca.follow.Known() == revs[ca.scope.NS]
	}
	warm := func() {
		t.Helper()
		checkIs(t, ca, "sara", "edit", true)
		// The watcher compares only caches that hold something; compare
		// now rather than wait for it.
		a.feed.Check(ctx, nil)
		if !caughtUp() {
			t.Fatal("a did not catch up with the store")
		}
		checkIs(t, ca, "sara", "edit", true)
		if ca.cache.InternUser("sara") == nil {
			t.Fatal("sara's entry not cached after a check")
		}
	}

	warm()
	checkIs(t, ca, "jack", "edit", true)
	cb.DelMembership(ctx, "jack", "editor")
	eventually(t, time.Second, "a sees jack removed", func() bool {
		ok, err := ca.UserHasPermission(ctx, "jack", "edit")
		return err == nil && !ok
	})
	eventually(t, time.Second, "a catches up", caughtUp)
	if ca.cache.InternUser("sara") == nil {
		t.Fatal("jack's membership changed elsewhere, and sara's entry was dropped too")
	}

	cb.AddRole(ctx, "viewer", "")
	eventually(t, time.Second, "a catches up with a role added", caughtUp)
	if ca.cache.InternUser("sara") == nil {
		t.Fatal("a role added elsewhere dropped sara's entry")
	}

	warm()
	cb.AddPermission(ctx, "editor", "read")
	eventually(t, time.Second, "a catches up with a grant", caughtUp)
	if ca.cache.InternUser("sara") == nil {
		t.Fatal("a grant elsewhere dropped sara's entry, not only the role's set")
	}
	checkIs(t, ca, "sara", "read", true)

	// An inheritance link added elsewhere, then a revoke on the new parent:
	// each drops only the sets built from that role (editor's), not sara's
	// entry, and a's next check sees it.
	cb.AddRole(ctx, "auditor", "")
	cb.AddPermission(ctx, "auditor", "audit")
	warm()
	checkIs(t, ca, "sara", "audit", false)
	cb.AddInheritance(ctx, "editor", "auditor")
	eventually(t, time.Second, "a catches up with a link", caughtUp)
	if ca.cache.InternUser("sara") == nil {
		t.Fatal("a link added elsewhere dropped sara's entry, not only the role's set")
	}
	checkIs(t, ca, "sara", "audit", true)
	cb.DelPermission(ctx, "auditor", "audit")
	eventually(t, time.Second, "a catches up with a revoke on the parent", caughtUp)
	if ca.cache.InternUser("sara") == nil {
		t.Fatal("a revoke on a parent elsewhere dropped sara's entry, not only the role's set")
	}
	checkIs(t, ca, "sara", "audit", false)

	// A revision with no change log entry: a flush.
	warm()
	err := b.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		_, err := bumpRevision(ctx, tx, cb.scope.NS)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Second, "a flushes for a revision it cannot explain", func() bool {
		return ca.cache.InternUser("sara") == nil
	})

	var logged []*string
	if err := a.db.NewRaw("SELECT user_name FROM rolegate_changes WHERE ns = ?", ca.scope.NS).Scan(ctx, &logged); err != nil {
		t.Fatal(err)
	}
	if len(logged) != 11 {
		t.Fatalf("%d change log entries, want one per change", len(logged))
	}
	for _, v := range logged {
		if v != nil && *v != "" && ca.scope.Users != nil && !cipher.IsEncrypted(*v) {
			t.Fatalf("the change log holds %q in plaintext", *v)
		}
		if v != nil && ca.scope.Users == nil && *v != "" && !strings.Contains("sara jack", *v) {
			t.Fatalf("unexpected change log user %q", *v)
		}
	}
}

// A client whose cache is empty but building an entry follows other
// replicas' changes, so that a build that read the store before a change
// cannot publish after it unnoticed; an idle empty cache is left alone.
func TestRevisionCheckFollowsBuildingCaches(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		slow := func(c *Config) { c.RevisionCheckInterval = time.Hour }
		a, b := openTarget(t, target, slow), openTarget(t, target, slow)
		key := newKey()
		ca, cb := mustClient(t, a, key), mustClient(t, b, key)
		started, release := make(chan struct{}), make(chan struct{})
		a.feed.Lock() // the listener's checks read the cache under it
		ca.setCache(cache.New(&heldLoader{Loader: storeLoader{ca}, started: started, release: release}, a.cacheBudget, nil))
		a.feed.Unlock()
		expect(t, "add_role elsewhere", true)(cb.AddRole(ctx, "editor", ""))
		a.feed.Check(ctx, nil)
		if k := ca.follow.Known(); k != 0 {
			t.Fatalf("an idle empty cache was compared (known %d)", k)
		}
		built := make(chan error, 1)
		go func() {
			_, err := ca.cache.Allowed(ctx, "sara", "", "edit")
			built <- err
		}()
		<-started // the build is reading the store
		a.feed.Check(ctx, nil)
		close(release)
		if err := <-built; err != nil {
			t.Fatal(err)
		}
		if k := ca.follow.Known(); k != 1 {
			t.Fatalf("a building cache was not compared (known %d, want 1)", k)
		}
	})
}

// heldLoader holds the first user read until release is closed, saying on
// started that it began.
type heldLoader struct {
	cache.Loader
	once             sync.Once
	started, release chan struct{}
}

func (l *heldLoader) UserRoles(ctx context.Context, user string, at time.Time) ([]string, []cache.ScopedRole, time.Time, error) {
	l.once.Do(func() { close(l.started) })
	<-l.release
	return l.Loader.UserRoles(ctx, user, at)
}

// This process's own changes are recognised in the change log by its
// writer id: a check that reads them (because another replica's change
// came first, so the write could not move the known revision on) drops
// only what the other replica changed, not what our write changed and
// dropped already.
func TestOwnChangesAreSkippedInTheChangeLog(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		slow := func(c *Config) { c.RevisionCheckInterval = time.Hour }
		a, b := openTarget(t, target, slow), openTarget(t, target, slow)
		key := newKey()
		ca, cb := mustClient(t, a, key), mustClient(t, b, key)
		expect(t, "add_role", true)(cb.AddRole(ctx, "editor", ""))
		expect(t, "add_role", true)(cb.AddRole(ctx, "viewer", ""))
		expect(t, "add_permission", true)(cb.AddPermission(ctx, "editor", "edit"))
		for _, u := range []string{"sara", "tom"} {
			expect(t, "add_membership", true)(cb.AddMembership(ctx, u, "editor"))
		}
		checkIs(t, ca, "sara", "edit", true)
		a.feed.Check(ctx, nil)
		checkIs(t, ca, "sara", "edit", true)
		checkIs(t, ca, "tom", "edit", true)
		checkIs(t, ca, "jack", "edit", false)
		// Hold a's checks (on PostgreSQL the listener would run them at
		// once): b's change comes first, ours next.
		a.feed.Lock()
		before := ca.follow.Known()
		expect(t, "add_membership elsewhere", true)(cb.AddMembership(ctx, "jack", "editor"))
		expect(t, "add_membership here", true)(ca.AddMembership(ctx, "tom", "viewer"))
		if k := ca.follow.Known(); k != before {
			a.feed.Unlock()
			t.Fatalf("our write moved known from %d to %d over another's revision", before, k)
		}
		checkIs(t, ca, "tom", "edit", true) // rebuilt after our own write
		a.feed.Unlock()
		a.feed.Check(ctx, nil)
		if k := ca.follow.Known(); k != before+2 {
			t.Fatalf("known %d after the check, want %d", k, before+2)
		}
		if ca.cache.InternUser("tom") == nil {
			t.Fatal("our own change, read back from the change log, dropped tom's entry")
		}
		if ca.cache.InternUser("sara") == nil {
			t.Fatal("jack's membership changed elsewhere, and sara's entry was dropped too")
		}
		checkIs(t, ca, "jack", "edit", true)
		var writers []*string
		if err := a.db.NewRaw("SELECT writer FROM rolegate_changes WHERE ns = ? ORDER BY revision DESC LIMIT 2", ca.scope.NS).Scan(ctx, &writers); err != nil {
			t.Fatal(err)
		}
		if len(writers) != 2 || writers[0] == nil || *writers[0] != a.feed.Writer() || writers[1] == nil || *writers[1] != b.feed.Writer() || a.feed.Writer() == b.feed.Writer() {
			t.Fatalf("change log writers %v, want a's (%s) then b's (%s)", writers, a.feed.Writer(), b.feed.Writer())
		}
	})
}

// bumpRevision advances the namespace's revision with no change log entry
// (and, on PostgreSQL, notifies), as a bulk load or a writer that predates
// the log would.
func bumpRevision(ctx context.Context, tx bun.IDB, ns string) (int64, error) {
	var rev int64
	err := tx.NewRaw(`INSERT INTO rolegate_revisions (ns, revision) VALUES (?, 1)
		ON CONFLICT (ns) DO UPDATE SET revision = rolegate_revisions.revision + 1
		RETURNING revision`, ns).Scan(ctx, &rev)
	if err == nil && storage.IsPostgres(tx) {
		_, err = tx.NewRaw("SELECT pg_notify(?, ?)", storage.ChangesChannel, ns).Exec(ctx)
	}
	return rev, err
}
