// Package clock is the time rolegate counts time bounds by: the system
// clock, or in tests a fake one that moves only when told. The decision
// cache wakes at the boundaries of what it holds through AfterFunc, so a
// check needs no clock of its own; the fake clock runs the functions that
// came due as Advance returns, so a test sees a boundary's effect at once.
package clock

import (
	"sort"
	"sync"
	"time"
)

// Clock tells the time and runs a function later.
type Clock interface {
	Now() time.Time
	// AfterFunc runs f in its own goroutine once d has passed (the system
	// clock), or when the clock is advanced past it (Fake).
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc.
type Timer interface {
	// Stop keeps the function from running, if it has not started;
	// false when it had.
	Stop() bool
}

// System is the system clock.
var System Clock = system{}

type system struct{}

func (system) Now() time.Time                            { return time.Now() }
func (system) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Or is c, or System when c is nil.
func Or(c Clock) Clock {
	if c == nil {
		return System
	}
	return c
}

// Fake is a clock for tests: its time moves only by Set and Advance, which
// run the functions that came due, in order of their times, before they
// return.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	pending []*fakeTimer
}

// NewFake returns a fake clock at t.
func NewFake(t time.Time) *Fake { return &Fake{now: t} }

type fakeTimer struct {
	c  *Fake
	at time.Time
	f  func()
}

// Now is the fake time.
func (c *Fake) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc runs f when the clock reaches now+d (d <= 0: at the next Set
// or Advance).
func (c *Fake) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), f: f}
	c.pending = append(c.pending, t)
	return t
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	for i, p := range t.c.pending {
		if p == t {
			t.c.pending = append(t.c.pending[:i], t.c.pending[i+1:]...)
			return true
		}
	}
	return false
}

// Advance moves the clock by d and runs what came due.
func (c *Fake) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// Set moves the clock to t and runs, one at a time and in order of their
// times, the functions due by then, including those that a function run
// here schedules within the new time.
func (c *Fake) Set(t time.Time) {
	c.mu.Lock()
	if t.After(c.now) {
		c.now = t
	}
	for {
		sort.SliceStable(c.pending, func(i, j int) bool { return c.pending[i].at.Before(c.pending[j].at) })
		if len(c.pending) == 0 || c.pending[0].at.After(c.now) {
			break
		}
		next := c.pending[0]
		c.pending = c.pending[1:]
		c.mu.Unlock()
		next.f()
		c.mu.Lock()
	}
	c.mu.Unlock()
}
