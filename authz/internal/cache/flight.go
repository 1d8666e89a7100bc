package cache

import (
	"context"
	"errors"
	"sync"
)

// flights runs one build per key and epoch at a time: concurrent misses
// for one key wait for the same build and share its result. A miss that
// starts after an invalidation (a newer epoch) never joins a build that
// began before it, since that build may have read the store before the
// change: it starts its own.
type flights[V any] struct {
	mu    sync.Mutex
	calls map[string]*flight[V]
}

type flight[V any] struct {
	epoch   uint64
	waiters int // joined this build (under flights.mu); read by tests
	done    chan struct{}
	v       V
	err     error
}

var errBuildPanicked = errors.New("cache: a build panicked")

// do runs fn for key under epoch, or waits for the build already running
// for key under the same epoch. A waiter whose context ends stops
// waiting; a waiter whose own context is fine does not inherit another
// caller's cancellation: it builds again.
func (f *flights[V]) do(ctx context.Context, key string, epoch uint64, fn func() (V, error)) (V, error) {
	for {
		f.mu.Lock()
		c, ok := f.calls[key]
		if !ok || c.epoch != epoch {
			break // f.mu still held
		}
		c.waiters++
		f.mu.Unlock()
		select {
		case <-c.done:
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
		if c.err != nil && isContextErr(c.err) && ctx.Err() == nil {
			continue
		}
		return c.v, c.err
	}
	if f.calls == nil {
		f.calls = map[string]*flight[V]{}
	}
	c := &flight[V]{epoch: epoch, done: make(chan struct{}), err: errBuildPanicked}
	f.calls[key] = c // replaces an older epoch's build, which runs on for its own waiters
	f.mu.Unlock()

	defer func() {
		f.mu.Lock()
		if f.calls[key] == c {
			delete(f.calls, key)
		}
		f.mu.Unlock()
		close(c.done)
	}()
	c.v, c.err = fn()
	return c.v, c.err
}

// waiting is how many callers wait for key's current build.
func (f *flights[V]) waiting(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c, ok := f.calls[key]; ok {
		return c.waiters
	}
	return 0
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
