package authz

import (
	"slices"
	"testing"
)

// observed is observe's first answer: whether the cache is stale.
func observed(r *revisions, rev int64) bool {
	stale, _ := r.observe(rev)
	return stale
}

func TestRevisions(t *testing.T) {
	var r revisions
	if observed(&r, 0) {
		t.Fatal("fresh client at revision 0 flushed")
	}
	// Our writes 1..3, reported out of order, never flush.
	r.ours(2)
	r.ours(1)
	if observed(&r, 2) {
		t.Fatal("flushed for our own revisions")
	}
	r.ours(3)
	if observed(&r, 3) {
		t.Fatal("flushed for our own revision 3")
	}
	// Revision 4 is someone else's.
	if !observed(&r, 4) {
		t.Fatal("a foreign revision did not flush")
	}
	// 5 is ours but 6 is not: seeing 6 flushes.
	r.ours(5)
	if !observed(&r, 6) {
		t.Fatal("a foreign revision after ours did not flush")
	}
	// Our write 7 reported after the store showed 7 already (we flushed
	// conservatively); it must not confuse what follows.
	if !observed(&r, 7) {
		t.Fatal("revision 7, not yet reported as ours, must flush")
	}
	r.ours(7)
	if observed(&r, 7) {
		t.Fatal("stable revision flushed")
	}
	// A store that went back (restored) flushes.
	if !observed(&r, 3) {
		t.Fatal("revision going back did not flush")
	}
}

func TestRevisionsWithdraw(t *testing.T) {
	var r revisions
	r.ours(1)
	if observed(&r, 1) {
		t.Fatal("claimed revision flushed")
	}
	// Revision 2 claimed, then its transaction fails: the number may be
	// someone else's next, which must flush.
	r.ours(2)
	r.withdraw(2)
	if !observed(&r, 2) {
		t.Fatal("a withdrawn revision counted as ours")
	}
}

// A check that reads the store while our own write is uncommitted, or
// whose read began before our latest commit, sees a revision below the one
// we know: nothing is stale.
func TestRevisionsOlderReadsOfOurWrites(t *testing.T) {
	var r revisions
	r.ours(1)
	r.ours(2) // in flight
	if observed(&r, 1) {
		t.Fatal("flushed while our own write was in flight")
	}
	if observed(&r, 2) {
		t.Fatal("flushed for our own revision")
	}
	if observed(&r, 1) {
		t.Fatal("an older read of our own writes flushed")
	}
	// A foreign revision flushes; the store then going back below it
	// flushes too.
	if !observed(&r, 4) || !observed(&r, 3) {
		t.Fatal("a foreign revision, then the store going back, did not flush")
	}
}

// Our writes above a gap nobody observed are bounded: the bookkeeping
// resets and asks for a flush.
func TestRevisionsBounded(t *testing.T) {
	var r revisions
	flushed := false
	for rev := int64(2); rev < 2+2*maxLocalRevisions; rev++ { // revision 1 was someone else's
		if r.ours(rev) {
			flushed = true
		}
	}
	if !flushed || len(r.local) > maxLocalRevisions {
		t.Fatalf("flushed %v, %d revisions kept", flushed, len(r.local))
	}
}

// Our recent revisions are remembered in a bounded window: the latest
// maxMine, older ones forgotten, a withdrawn one forgotten at once.
func TestRevisionsMineWindow(t *testing.T) {
	var r revisions
	const last = 3 * maxMine
	for rev := int64(1); rev <= last; rev++ {
		r.ours(rev)
	}
	if len(r.mine) != maxMine || len(r.recent) != maxMine {
		t.Fatalf("kept %d revisions (%d slots), want %d", len(r.mine), len(r.recent), maxMine)
	}
	if !r.allMine(last - maxMine) {
		t.Fatal("the latest maxMine revisions are not all remembered as ours")
	}
	if r.allMine(last - maxMine - 1) {
		t.Fatal("a revision older than the window is still remembered")
	}
	// A read of the store from before our last maxMine writes cannot be
	// explained by them: it flushes.
	if !observed(&r, last-maxMine-1) {
		t.Fatal("a read older than the window did not flush")
	}

	// Withdrawn, then claimed again: the first claim's slot, when it is
	// reused, must not make us forget the second.
	var w revisions
	w.ours(1)
	w.ours(2)
	w.withdraw(2)
	w.ours(2)
	for rev := int64(3); rev < maxMine+2; rev++ {
		w.ours(rev)
	}
	// Slot of the first claim of 2 (sequence 1) has now been reused.
	if _, ok := w.mine[2]; !ok {
		t.Fatal("revision 2, claimed again, forgotten when its withdrawn claim's slot was reused")
	}
}

// ours is on every write's path: it must cost the same after many writes
// as after a few.
func BenchmarkRevisionsOurs(b *testing.B) {
	var r revisions
	rev := int64(0)
	for range 2 * maxMine {
		rev++
		r.ours(rev)
	}
	b.ReportAllocs()
	for b.Loop() {
		rev++
		r.ours(rev)
	}
}

// observe lists the revisions that are not ours, for a targeted
// invalidation, and none when there are too many or the store went back.
func TestRevisionsForeign(t *testing.T) {
	var r revisions
	r.ours(1)
	r.ours(3)
	if stale, foreign := r.observe(4); !stale || !slices.Equal(foreign, []int64{2, 4}) {
		t.Fatalf("observe(4) after our 1 and 3 = %v %v, want true [2 4]", stale, foreign)
	}
	if stale, foreign := r.observe(4 + maxForeign + 1); !stale || foreign != nil {
		t.Fatalf("a gap of more than maxForeign = %v %v, want a flush (true, nil)", stale, len(foreign))
	}
	if stale, foreign := r.observe(2); !stale || foreign != nil {
		t.Fatalf("the store going back = %v %v, want a flush (true, nil)", stale, foreign)
	}
}

// When every revision since the last one known is ours, observe lists
// none (an empty list, not nil), so nothing is flushed.
func TestRevisionsAllOursIsAnEmptyList(t *testing.T) {
	var r revisions
	r.ours(1)
	r.ours(2)
	r.ours(3)
	r.withdraw(2) // its transaction failed: known falls back to 1
	r.ours(2)     // the number claimed again by our next write
	stale, foreign := r.observe(3)
	if foreign == nil || len(foreign) != 0 {
		t.Fatalf("observe(3) = %v %v, want an empty list", stale, foreign)
	}
}
