package feed

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// recordingCache is a follower's cache that records what the feed drops
// from it, and holds something unless told it is empty.
type recordingCache struct {
	mu    sync.Mutex
	drops []string
	empty bool
}

func (c *recordingCache) record(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drops = append(c.drops, s)
}
func (c *recordingCache) InvalidateUser(u string) { c.record("user " + u) }
func (c *recordingCache) InvalidateRole(r string) { c.record("role " + r) }
func (c *recordingCache) DeleteRole(r string)     { c.record("deleted " + r) }
func (c *recordingCache) Flush()                  { c.record("flush") }
func (c *recordingCache) Len() int {
	if c.empty {
		return 0
	}
	return 1
}
func (c *recordingCache) Roles() int    { return 0 }
func (c *recordingCache) Building() int { return 0 }

// take returns the drops recorded since the last take.
func (c *recordingCache) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.drops
	c.drops = nil
	return d
}

// harness is a feed over a real store following one client.
type harness struct {
	db    *bun.DB
	feed  *Feed
	fl    *Follower
	cache *recordingCache
}

func newHarness(t *testing.T, target storagetest.Target, mod func(*Config)) *harness {
	t.Helper()
	db := storagetest.OpenTarget(t, target)
	h := &harness{db: db, cache: &recordingCache{}}
	h.fl = &Follower{Scope: storage.Scope{NS: storage.NamespaceOf("8f14e45f-ceea-467a-9af0-2b0a3cb46b6c")}, Client: "test", Cache: h.cache}
	cfg := Config{DB: db, Interval: time.Hour, Followers: func(yield func(*Follower) bool) { yield(h.fl) }}
	if mod != nil {
		mod(&cfg)
	}
	h.feed = New(cfg)
	return h
}

// write records a change as a write of the process writer would, in a
// transaction of its own, and returns its revision.
func (h *harness) write(t *testing.T, writer string, ch storage.Change) int64 {
	t.Helper()
	ch.Writer = writer
	var rev int64
	err := h.db.RunInTx(context.Background(), nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		rev, err = storage.RecordChange(ctx, tx, h.fl.Scope, ch)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return rev
}

// A check drops what the change log says other writers changed (a user,
// a role's grants, a role deleted), skips what this process wrote, and
// flushes for a revision the log cannot explain or for a store gone
// back; known follows the store.
func TestCheckDropsWhatTheChangeLogNames(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		h := newHarness(t, target, nil)
		ctx := context.Background()
		h.write(t, "other", storage.Change{User: "sara"})
		h.write(t, "other", storage.Change{Role: "editor"})
		h.write(t, h.feed.Writer(), storage.Change{User: "tom"}) // ours: dropped by our write already
		rev := h.write(t, "other", storage.Change{Role: "viewer", RoleDeleted: true})
		h.feed.Check(ctx, nil)
		if got, want := h.cache.take(), []string{"user sara", "role editor", "deleted viewer"}; !slices.Equal(got, want) {
			t.Fatalf("drops %q, want %q", got, want)
		}
		if k := h.fl.Known(); k != rev {
			t.Fatalf("known %d, want %d", k, rev)
		}
		h.feed.Check(ctx, nil)
		if got := h.cache.take(); len(got) != 0 {
			t.Fatalf("a check with nothing new dropped %q", got)
		}

		// A revision without a change log entry (a bulk load, a writer
		// that predates the log): a flush.
		err := h.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			_, err := tx.NewRaw("UPDATE rolegate_revisions SET revision = revision + 1 WHERE ns = ?", h.fl.Scope.NS).Exec(ctx)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		h.feed.Check(ctx, nil)
		if got := h.cache.take(); !slices.Equal(got, []string{"flush"}) {
			t.Fatalf("drops %q for a revision the log cannot explain, want a flush", got)
		}
		if k := h.fl.Known(); k != rev+1 {
			t.Fatalf("known %d, want %d", k, rev+1)
		}

		// A store gone back (restored): a flush, and known believes it.
		if _, err := h.db.NewRaw("UPDATE rolegate_revisions SET revision = 2 WHERE ns = ?", h.fl.Scope.NS).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		h.feed.Check(ctx, nil)
		if got := h.cache.take(); !slices.Equal(got, []string{"flush"}) {
			t.Fatalf("drops %q for a store gone back, want a flush", got)
		}
		if k := h.fl.Known(); k != 2 {
			t.Fatalf("known %d after the store went back to 2", k)
		}
	})
}

// An idle empty cache is not compared (nothing to keep right); a check
// of other namespaces leaves it alone too.
func TestCheckSkipsEmptyCachesAndOtherNamespaces(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		h := newHarness(t, target, nil)
		ctx := context.Background()
		h.write(t, "other", storage.Change{User: "sara"})
		h.cache.empty = true
		h.feed.Check(ctx, nil)
		if k := h.fl.Known(); k != 0 {
			t.Fatalf("an empty cache was compared (known %d)", k)
		}
		h.cache.empty = false
		h.feed.Check(ctx, []string{"another namespace"})
		if k := h.fl.Known(); k != 0 {
			t.Fatalf("a check of another namespace compared this one (known %d)", k)
		}
		h.feed.Check(ctx, []string{h.fl.Scope.NS})
		if got := h.cache.take(); !slices.Equal(got, []string{"user sara"}) || h.fl.Known() != 1 {
			t.Fatalf("drops %q, known %d", got, h.fl.Known())
		}
	})
}

// A write's commit moves known on only when it follows known directly;
// CatchUp and AtLeast read the store; AtLeast past the store's revision
// is ErrInvalid; Confirm catches up a cache that is behind or ahead.
func TestCatchUpAtLeastConfirm(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		h := newHarness(t, target, nil)
		ctx := context.Background()
		rev := h.write(t, h.feed.Writer(), storage.Change{User: "sara"})
		h.feed.Committed(ctx, h.fl, rev, rev)
		if k := h.fl.Known(); k != rev {
			t.Fatalf("known %d after our own write of %d", k, rev)
		}
		other := h.write(t, "other", storage.Change{User: "tom"})
		ours := h.write(t, h.feed.Writer(), storage.Change{User: "jack"})
		h.feed.Committed(ctx, h.fl, ours, ours)
		if k := h.fl.Known(); k != rev {
			t.Fatalf("our write moved known to %d over another's revision %d", k, other)
		}
		if err := h.feed.AtLeast(ctx, h.fl, ours+1); !errors.Is(err, ErrInvalid) {
			t.Fatalf("AtLeast past the store: %v, want ErrInvalid", err)
		}
		if got := h.cache.take(); !slices.Equal(got, []string{"user tom"}) {
			t.Fatalf("catching up dropped %q, want only tom (jack is ours)", got)
		}
		if err := h.feed.AtLeast(ctx, h.fl, ours); err != nil || h.fl.Known() != ours {
			t.Fatalf("AtLeast(%d) = %v, known %d", ours, err, h.fl.Known())
		}
		if err := h.feed.Confirm(ctx, h.fl); err != nil || len(h.cache.take()) != 0 {
			t.Fatalf("Confirm on a current cache: %v", err)
		}
		h.write(t, "other", storage.Change{Role: "editor"})
		if err := h.feed.Confirm(ctx, h.fl); err != nil || h.fl.Known() != ours+1 {
			t.Fatalf("Confirm behind: %v, known %d", err, h.fl.Known())
		}
		if got := h.cache.take(); !slices.Equal(got, []string{"role editor"}) {
			t.Fatalf("Confirm dropped %q", got)
		}
		// Restored from a backup taken at revision 1.
		for _, q := range []string{"UPDATE rolegate_revisions SET revision = 1 WHERE ns = ?", "DELETE FROM rolegate_changes WHERE ns = ? AND revision > 1"} {
			if _, err := h.db.NewRaw(q, h.fl.Scope.NS).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if err := h.feed.Confirm(ctx, h.fl); err != nil || h.fl.Known() != 1 {
			t.Fatalf("Confirm after the store went back: %v, known %d", err, h.fl.Known())
		}
		if got := h.cache.take(); !slices.Equal(got, []string{"flush"}) {
			t.Fatalf("Confirm after the store went back dropped %q, want a flush", got)
		}
		if lag, err := h.feed.Lag(ctx); err != nil || lag != 0 {
			t.Fatalf("Lag %d, %v", lag, err)
		}
		h.write(t, "other", storage.Change{User: "sara"})
		h.write(t, h.feed.Writer(), storage.Change{User: "sara"})
		if lag, err := h.feed.Lag(ctx); err != nil || lag != 1 {
			t.Fatalf("Lag %d, %v; want 1 (one of two revisions is ours)", lag, err)
		}
	})
}

// A store that announces writes delivers them as cues: with the periodic
// check an hour away, only the listener explains the drop. A lost
// connection flushes, and the listener comes back and catches up. A store
// that announces nothing has no listener.
func TestListenerCues(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		if target.Name == "sqlite" {
			h := newHarness(t, target, nil)
			if h.feed.Listens() || h.feed.FirstOutcome() != nil {
				t.Fatal("a listener on a store that announces nothing")
			}
			h.feed.Listen(context.Background()) // returns at once
			return
		}
		appName := "rolegate_feed_" + strings.ReplaceAll(time.Now().Format("150405.000000"), ".", "")
		target.Config.PostgreSQLURL += "&application_name=" + appName
		// Proofs of life every 300 ms, each given 2 s: on a loaded machine a
		// shorter answer loses the subscription now and then, and its flush
		// would stand in for the cue this test waits for.
		h := newHarness(t, target, func(c *Config) { c.Notifier = NewNotifier(c.DB, 300*time.Millisecond, 2*time.Second) })
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			h.feed.Listen(ctx)
		}()
		t.Cleanup(func() { cancel(); <-done })
		select {
		case err := <-h.feed.FirstOutcome():
			if err != nil || !h.feed.Live() {
				t.Fatalf("first subscription: %v (live %v)", err, h.feed.Live())
			}
		case <-time.After(15 * time.Second):
			t.Fatal("no subscription outcome")
		}
		h.write(t, "other", storage.Change{User: "sara"})
		eventually(t, "the cue drops sara", func() bool { return slices.Contains(h.cache.take(), "user sara") })

		var killed int
		if err := h.db.NewRaw(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE application_name = ? AND query LIKE 'LISTEN%'`, appName).Scan(ctx, &killed); err != nil || killed == 0 {
			t.Fatalf("terminating the listener: %d, %v", killed, err)
		}
		sawFlush := false
		eventually(t, "a flush, then the listener live again", func() bool {
			sawFlush = sawFlush || slices.Contains(h.cache.take(), "flush")
			return sawFlush && h.feed.Live()
		})
		h.write(t, "other", storage.Change{Role: "editor"})
		eventually(t, "the cue after reconnecting drops editor", func() bool { return slices.Contains(h.cache.take(), "role editor") })
	})
}

// caughtUp moves the cache's known revision to what a check read, unless
// our own writes carried it further meanwhile; a store gone back is
// believed.
func TestCaughtUp(t *testing.T) {
	var fl Follower
	fl.caughtUp(0, 5)
	if k := fl.Known(); k != 5 {
		t.Fatalf("known %d after catching up to 5", k)
	}
	fl.known.CompareAndSwap(5, 6) // our write of revision 6
	fl.known.CompareAndSwap(6, 7) // and 7, during a check that read 6
	fl.caughtUp(5, 6)
	if k := fl.Known(); k != 7 {
		t.Fatalf("known %d, want 7: our writes carried it past the check", k)
	}
	fl.caughtUp(7, 2)
	if k := fl.Known(); k != 2 {
		t.Fatalf("known %d, want 2: the store went back", k)
	}
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A check that cannot read the store flushes every cache that holds
// something: guards then fail closed rather than answer from data nobody
// can vouch for.
func TestFailedCheckFlushes(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		h := newHarness(t, target, nil)
		h.db.Close()
		h.feed.Check(context.Background(), nil)
		if got := h.cache.take(); !slices.Equal(got, []string{"flush"}) {
			t.Fatalf("drops %q after a failed check, want a flush", got)
		}
	})
}
