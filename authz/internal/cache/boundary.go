package cache

import (
	"container/heap"
	"time"
)

// Time bounds. A membership or a grant may count only from a start or
// until an end (see Loader): every entry is built from what holds at one
// time and carries next, the first start or end after that time among the
// rows it was built from (through inheritance, for a role's set), when it
// would answer differently with no write at all.
//
// The warm check reads no clock (a clock read would cost more than the
// check): the cache keeps its entries' boundaries in a heap and sets one
// timer at the earliest; when it fires, the entries whose boundary has
// come are dropped like invalidated ones (a role entry dies, so its users
// look it up again; a user entry leaves the map), and the next check of
// them reads the store as it is then. The miss path compares next with the
// clock itself, so it never reuses an entry past its boundary while the
// timer is late. A build whose boundary came while it read is not
// published, as one overtaken by an invalidation is not.

// boundary is an entry that changes at at (Unix nanoseconds): a user
// entry or a role entry.
type boundary struct {
	at int64
	u  *userEntry
	r  *roleEntry
}

// boundaries is a min-heap of boundaries by at.
type boundaries []boundary

func (h boundaries) Len() int           { return len(h) }
func (h boundaries) Less(i, j int) bool { return h[i].at < h[j].at }
func (h boundaries) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *boundaries) Push(x any)        { *h = append(*h, x.(boundary)) }
func (h *boundaries) Pop() any {
	old := *h
	b := old[len(old)-1]
	old[len(old)-1] = boundary{}
	*h = old[:len(old)-1]
	return b
}

// maxWake is the longest the boundary timer sleeps: the timer runs on the
// monotonic clock and bounds are wall-clock times, so after a step of the
// wall clock (or a suspended machine) the cache looks again within this.
const maxWake = 10 * time.Second

// now is the cache's time in Unix nanoseconds.
func (c *Cache) now() int64 { return c.clock.Now().UnixNano() }

// passed reports whether a boundary (0: none) has come by now.
func passed(next, now int64) bool { return next != 0 && next <= now }

// nanos is t in Unix nanoseconds, 0 for the zero time.
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// scheduleLocked keeps b until its time comes, waking the cache then.
func (c *Cache) scheduleLocked(b boundary) {
	heap.Push(&c.due, b)
	if n := len(c.due); n > 64 && n > 2*(c.users.Size()+c.roles.Size()) {
		c.compactDueLocked()
	}
	if c.wake == nil || b.at < c.wakeAt {
		c.armLocked(c.due[0].at)
	}
}

// compactDueLocked forgets the boundaries of entries that left the cache
// otherwise (invalidated, evicted, replaced), so that the heap stays in
// proportion to the entries held.
func (c *Cache) compactDueLocked() {
	live := c.due[:0]
	for _, b := range c.due {
		if (b.u != nil && !b.u.gone.Load()) || (b.r != nil && !b.r.dead.Load()) {
			live = append(live, b)
		}
	}
	clear(c.due[len(live):])
	c.due = live
	heap.Init(&c.due)
}

// armLocked sets the timer to wake the cache at at.
func (c *Cache) armLocked(at int64) {
	if c.wake != nil {
		c.wake.Stop()
	}
	c.wakeAt = at
	d := min(time.Duration(at-c.now()), maxWake)
	c.wake = c.clock.AfterFunc(d, c.passBoundaries)
}

// passBoundaries drops every entry whose boundary has come and sets the
// timer for the next one.
func (c *Cache) passBoundaries() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wake = nil
	if c.closed {
		return
	}
	now := c.now()
	for len(c.due) > 0 && c.due[0].at <= now {
		b := heap.Pop(&c.due).(boundary)
		switch {
		case b.r != nil && !b.r.dead.Load():
			c.killLocked(b.r, true)
		case b.u != nil:
			c.dropUserLocked(b.u)
		}
	}
	if len(c.due) > 0 {
		c.armLocked(c.due[0].at)
	}
}

// dropUserLocked removes u from the users map if it is still there.
func (c *Cache) dropUserLocked(u *userEntry) {
	if c.deleteUserLocked(u) {
		c.budget.count(c, -1, -u.size())
	}
}

// clearDueLocked forgets every boundary and stops the timer (a flush).
func (c *Cache) clearDueLocked() {
	clear(c.due)
	c.due = c.due[:0]
	if c.wake != nil {
		c.wake.Stop()
		c.wake = nil
	}
}

// Boundaries is the number of entry boundaries the cache waits for.
func (c *Cache) Boundaries() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.due)
}
