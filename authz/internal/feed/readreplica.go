package feed

import (
	"sync/atomic"
)

// What a follower keeps for reads from a hot standby (Reader): the
// revision such a read must reflect, whether the feed has followed the
// client without a gap since it last read the store's revision, and what
// it has seen of the standby.
//
// The rule: a cache reflects every revision up to known, and every later
// change will be dropped from it when the feed reads it (a cue, the
// periodic check, a catch-up). An entry built from any state at least
// that new is therefore right as soon as the feed has caught up, however
// old the state: what changed after it is dropped on the way. So a read
// from the standby needs the standby to have replayed known, and more:
//   - need, raised before anything is dropped (by the feed when it has
//     read a newer revision, by a write of this process when it has
//     committed one): a build that starts after a drop must not read a
//     state older than the change that caused it. A build that starts
//     before one is refused by the cache's own tickets.
//   - followed: known can be trusted only while the feed follows the
//     client. A cue for a cache holding nothing, a periodic check that
//     passed it over (it held nothing), a lost subscription: each is a
//     lapse, after which changes may have gone by that nobody dropped or
//     raised need for (on one database a read sees them anyway). Until a
//     catch-up reads the store's revision again, a read from the standby
//     first reads the primary's revision (one read by primary key) and
//     needs that.
type replica struct {
	need atomic.Int64
	// lapses counts the lapses; followed is lapses+1 as of the start of
	// the last catch-up (the revision read after it): equal, the feed has
	// followed the client since.
	lapses, followed atomic.Int64
	// at is the highest revision of the client seen on the standby: a
	// standby only moves forward, so a read needing no more than at needs
	// no look.
	at atomic.Int64
	// behind: since when (Unix ns) the standby has been seen short of
	// what a read needed, 0 when it was not; probed: when the last look
	// ended; probing: a look is under way.
	behind, probed atomic.Int64
	probing        atomic.Bool
}

// Require records that reads from a standby for fl must reflect revision
// rev from now on: a write of this process calls it once it has committed
// rev, before it drops from the cache what it changed.
func (fl *Follower) Require(rev int64) { raise(&fl.replica.need, rev) }

// needs is the revision a read from a standby must reflect, as far as the
// follower knows without asking the primary.
func (fl *Follower) needs() int64 { return max(fl.known.Load(), fl.replica.need.Load()) }

// lapse records that the feed let the client's changes go by unfollowed.
func (fl *Follower) lapse() { fl.replica.lapses.Add(1) }

// mark is taken before a catch-up reads the store's revision; followSince
// records after it that the feed followed the client from there.
func (fl *Follower) mark() int64            { return fl.replica.lapses.Load() }
func (fl *Follower) followSince(mark int64) { raise(&fl.replica.followed, mark+1) }

// trusted reports whether no lapse happened since the last catch-up.
func (fl *Follower) trusted() bool {
	return fl.replica.followed.Load() == fl.replica.lapses.Load()+1
}

// raise moves v up to x, never down.
func raise(v *atomic.Int64, x int64) {
	for {
		cur := v.Load()
		if cur >= x || v.CompareAndSwap(cur, x) {
			return
		}
	}
}
