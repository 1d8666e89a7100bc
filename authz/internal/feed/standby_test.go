package feed

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/observe"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// A standby here is a second schema of the test database standing in for
// a hot standby: its revision row is set by hand, as WAL replay would
// move it, so that being behind, catching up and pausing are exact. (The
// real streaming standby is examples/faulttest's TestReadReplica.)

// standbyHarness is a harness over the primary plus a reader whose
// standby is another schema.
type standbyHarness struct {
	*harness
	standby *bun.DB
	reader  *Reader
}

func newStandbyHarness(t *testing.T, wait, bound time.Duration) *standbyHarness {
	t.Helper()
	h := &standbyHarness{harness: newHarness(t, storagetest.PostgreSQL(t), nil)}
	s := storagetest.PostgreSQL(t)
	storagetest.OpenTarget(t, s) // migrated, as a standby of the primary would be
	db, err := storage.OpenReplica(s.Config.PostgreSQLURL, nil, bound)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h.standby = db
	h.reader = NewReader(ReaderConfig{Primary: h.db, Standby: db, Wait: wait, Bound: bound, Feed: h.feed})
	t.Cleanup(h.reader.Close)
	return h
}

// replay sets the client's revision on the standby, as replaying the
// primary's WAL up to rev would.
func (h *standbyHarness) replay(t *testing.T, rev int64) {
	t.Helper()
	_, err := h.standby.NewRaw(`INSERT INTO rolegate_revisions (ns, revision) VALUES (?, ?)
		ON CONFLICT (ns) DO UPDATE SET revision = excluded.revision`, h.fl.Scope.NS, rev).Exec(context.Background())
	if err != nil {
		t.Fatal(err)
	}
}

// where reads once and says which server answered, and how long it took.
func (h *standbyHarness) where(t *testing.T, strict bool) (string, time.Duration) {
	t.Helper()
	start := time.Now()
	var on string
	err := h.reader.Read(context.Background(), h.fl, strict, func(_ context.Context, db bun.IDB, _ func()) error {
		on = map[bool]string{true: "standby", false: "primary"}[db == h.reader.standby]
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return on, time.Since(start)
}

func (h *standbyHarness) counts() string {
	s := fmt.Sprintf("served %d", h.reader.Served())
	for why, l := range observe.FallbackLabels {
		s += fmt.Sprintf(", %s %d", l, h.reader.FellBack(observe.Fallback(why)))
	}
	return s
}

// The freshness rule: the standby answers once it has replayed the
// revision the client's cache reflects (or a write of this process
// requires); before that a read waits up to the wait, once, and reads the
// primary; a standby behind for longer is not waited for, and is looked
// at again every wait until it has caught up.
func TestReaderFollowsTheStandbysRevision(t *testing.T) {
	const wait = 400 * time.Millisecond
	h := newStandbyHarness(t, wait, time.Second)
	ctx := context.Background()
	rev := h.write(t, "other", storage.Change{User: "sara"})
	h.feed.Check(ctx, nil) // the cache holds something: followed, known = rev

	if on, took := h.where(t, false); on != "primary" || took < wait {
		t.Fatalf("standby at 0, cache at %d: read on the %s after %v, want the primary after the wait (%v)", rev, on, took, wait)
	}
	if on, took := h.where(t, false); on != "primary" || took > wait/2 {
		t.Fatalf("standby behind for longer than the wait: read on the %s after %v, want the primary at once", on, took)
	}
	h.replay(t, rev)
	time.Sleep(wait) // the next look
	if on, _ := h.where(t, false); on != "standby" {
		t.Fatalf("standby caught up: read on the %s, want the standby (%s)", on, h.counts())
	}
	if on, took := h.where(t, false); on != "standby" || took > wait/2 {
		t.Fatalf("standby known to be there: read on the %s after %v", on, took)
	}

	// A write of this process requires its revision before it drops.
	h.fl.Require(rev + 1)
	if on, _ := h.where(t, false); on != "primary" {
		t.Fatalf("a local write the standby has not replayed: read on the %s", on)
	}
	// Caught up within the wait: the read waits for it and stays on the
	// standby.
	go func() {
		time.Sleep(wait / 4)
		h.replay(t, rev+1)
	}()
	h.fl.replica.behind.Store(0) // a fresh lag, as after the standby was seen caught up
	// (A margin for a loaded machine: the looks themselves take time.)
	if on, took := h.where(t, false); on != "standby" || took > wait+time.Second {
		t.Fatalf("standby catching up within the wait: read on the %s after %v (%s)", on, took, h.counts())
	}
	if h.reader.FellBack(observe.FallbackBehind) < 3 || h.reader.Served() < 3 {
		t.Fatalf("counts: %s", h.counts())
	}
	t.Log(h.counts())
}

// A lapse (a cue the feed passed over because the cache held nothing, a
// lost subscription) makes a read ask the primary's revision first: the
// cache's known revision cannot be trusted to cover what went by. Strict
// reads always ask.
func TestReaderAsksThePrimaryAfterALapse(t *testing.T) {
	h := newStandbyHarness(t, 20*time.Millisecond, time.Second)
	ctx := context.Background()
	if on, _ := h.where(t, false); on != "standby" {
		// A new follower is not followed yet: the primary's revision (0)
		// is needed, which the standby has.
		t.Fatalf("new follower, nothing written: read on the %s", on)
	}
	rev := h.write(t, "other", storage.Change{User: "sara"})
	h.replay(t, rev)
	h.feed.Check(ctx, nil)
	if !h.fl.trusted() {
		t.Fatal("not followed after a check")
	}

	// A write while the cache holds nothing: its cue is passed over.
	h.cache.empty = true
	rev2 := h.write(t, "other", storage.Change{User: "tom"})
	h.feed.Check(ctx, []string{h.fl.Scope.NS})
	if h.fl.trusted() || h.fl.Known() != rev {
		t.Fatalf("cue passed over: trusted %v, known %d", h.fl.trusted(), h.fl.Known())
	}
	// known is still rev, which the standby has replayed; only the
	// primary knows of rev2.
	if on, _ := h.where(t, false); on != "primary" {
		t.Fatalf("after a lapse, standby at %d, primary at %d: read on the %s", rev, rev2, on)
	}
	h.replay(t, rev2)
	h.fl.replica.behind.Store(0)
	if on, _ := h.where(t, false); on != "standby" {
		t.Fatalf("after a lapse, standby caught up: read on the %s", on)
	}

	// Followed again once a check has read the revision.
	h.cache.empty = false
	h.feed.Check(ctx, nil)
	if !h.fl.trusted() {
		t.Fatal("not followed after the check")
	}
	// A lost subscription is a lapse too.
	h.feed.Unsubscribed(errors.New("gone"), time.Second)
	if h.fl.trusted() {
		t.Fatal("followed after a lost subscription")
	}
	h.feed.Check(ctx, nil)

	// Strict: the primary's current revision, whatever the cache knows.
	rev3 := h.write(t, "other", storage.Change{User: "ana"})
	if on, _ := h.where(t, false); on != "standby" {
		t.Fatalf("default read, cache at %d, standby at %d: read on the %s", rev2, rev2, on)
	}
	if on, _ := h.where(t, true); on != "primary" {
		t.Fatalf("strict read, primary at %d, standby at %d: read on the %s", rev3, rev2, on)
	}
}

// A standby that does not answer costs a read at most the bound, once:
// then reads go to the primary at once, many at a time with no pile-up,
// and it is tried again in the background.
func TestReaderLeavesAStalledStandbyAlone(t *testing.T) {
	const bound = 300 * time.Millisecond
	h := newStandbyHarness(t, 20*time.Millisecond, bound)
	// Swap the standby for one that accepts connections and never
	// answers.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held sync.WaitGroup
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop); ln.Close(); held.Wait() })
	held.Add(1)
	go func() {
		defer held.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held.Add(1)
			go func() { defer held.Done(); <-stop; c.Close() }()
		}
	}()
	stalled, err := storage.OpenReplica("postgres://postgres@"+ln.Addr().String()+"/x?sslmode=disable", nil, bound)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stalled.Close() })
	h.reader = NewReader(ReaderConfig{Primary: h.db, Standby: stalled, Wait: 20 * time.Millisecond, Bound: bound, Feed: h.feed})
	t.Cleanup(h.reader.Close)
	h.write(t, "other", storage.Change{User: "sara"})
	h.feed.Check(context.Background(), nil) // the reads need revision 1: a look at the standby

	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var slowest time.Duration
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			on, took := h.where(t, false)
			mu.Lock()
			defer mu.Unlock()
			slowest = max(slowest, took)
			if on != "primary" {
				t.Errorf("stalled standby: read on the %s", on)
			}
		}()
	}
	wg.Wait()
	if slowest > bound+500*time.Millisecond {
		t.Fatalf("40 reads with the standby stalled: slowest %v, want within the bound (%v) and a margin", slowest, bound)
	}
	first := time.Since(start)
	if on, took := h.where(t, false); on != "primary" || took > bound/2 {
		t.Fatalf("standby left alone: read on the %s after %v, want the primary at once", on, took)
	}
	if h.reader.FellBack(observe.FallbackDown)+h.reader.FellBack(observe.FallbackBehind) < 41 {
		t.Fatalf("counts: %s", h.counts())
	}
	t.Logf("40 concurrent reads with the standby stalled: all within %v (slowest %v); the next at once; %s", first.Round(time.Millisecond), slowest.Round(time.Millisecond), h.counts())
}

// A read that fails on the standby before it handed anything on runs
// again on the primary; after it handed something on, the error is the
// caller's. A refused read (an answer, not a failure) is not retried.
func TestReaderRetriesOnThePrimary(t *testing.T) {
	h := newStandbyHarness(t, 20*time.Millisecond, time.Second)
	ctx := context.Background()
	var on []string
	read := func(handFirst bool, fail error) error {
		on = nil
		return h.reader.Read(ctx, h.fl, false, func(_ context.Context, db bun.IDB, hand func()) error {
			if db != h.standby {
				on = append(on, "primary")
				return nil
			}
			on = append(on, "standby")
			if handFirst {
				hand()
			}
			return fail
		})
	}
	gone := fmt.Errorf("%w: connection reset", storage.ErrUnavailable)
	if err := read(false, gone); err != nil || fmt.Sprint(on) != "[standby primary]" {
		t.Fatalf("standby failed before handing on: %v, ran on %v", err, on)
	}
	if h.reader.FellBack(observe.FallbackFailed) != 1 {
		t.Fatalf("counts: %s", h.counts())
	}
	// It failed as unreachable: left alone now.
	if err := read(false, nil); err != nil || fmt.Sprint(on) != "[primary]" {
		t.Fatalf("after the failure: %v, ran on %v", err, on)
	}
	h.reader.answered()
	if err := read(true, gone); !errors.Is(err, storage.ErrUnavailable) || fmt.Sprint(on) != "[standby]" {
		t.Fatalf("standby failed after handing on: %v, ran on %v", err, on)
	}
	h.reader.answered()
	if err := read(false, storage.ErrRoleNotFound); !errors.Is(err, storage.ErrRoleNotFound) || fmt.Sprint(on) != "[standby]" {
		t.Fatalf("an answer from the standby: %v, ran on %v", err, on)
	}
}

// With every connection to the standby in use, a read goes to the primary
// rather than queue.
func TestReaderBusyStandby(t *testing.T) {
	h := newStandbyHarness(t, 20*time.Millisecond, time.Second)
	ctx := context.Background()
	release := make(chan struct{})
	var wg sync.WaitGroup
	n := cap(h.reader.slots)
	started := make(chan struct{}, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = h.reader.Read(ctx, h.fl, false, func(_ context.Context, db bun.IDB, _ func()) error {
				started <- struct{}{}
				<-release
				return nil
			})
		}()
	}
	for range n {
		<-started
	}
	if on, _ := h.where(t, false); on != "primary" || h.reader.FellBack(observe.FallbackBusy) != 1 {
		t.Fatalf("every slot held: read on the %s (%s)", on, h.counts())
	}
	close(release)
	wg.Wait()
	if on, _ := h.where(t, false); on != "standby" {
		t.Fatalf("slots free again: read on the %s", on)
	}
}

// A replica that is not in recovery (here: the test server, a primary)
// is found so and keeps Listen; a real standby loses it (examples/
// faulttest's TestReadReplica), and NewNotifier asks for Listen.
func TestReplicaNotInRecovery(t *testing.T) {
	h := newStandbyHarness(t, 20*time.Millisecond, time.Second)
	standby, err := storage.DetectStandby(context.Background(), h.standby)
	if err != nil {
		t.Fatal(err)
	}
	if standby || !storage.Has(h.standby, storage.Listen) || storage.Has(h.standby, storage.Standby) {
		t.Fatalf("a primary as the replica: standby %v, Listen %v", standby, storage.Has(h.standby, storage.Listen))
	}
	if _, ok := NewNotifier(h.standby, 0, 0).(*pgNotifier); !ok {
		t.Fatal("a primary's notifier announces nothing")
	}
}
