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

// doMany is do for several distinct keys under one epoch: the keys with a
// build already running under epoch wait for it, and fn builds all the
// others together (one read of the store for them all), returning one
// value per key it is given, in that order. A joined build that failed
// only because its own caller gave up is run again for its key alone,
// with one. The values come back in the order of keys.
//
// A caller finishes the builds it owns before it waits for the ones it
// joined, so two callers that each joined the other's keys never wait for
// each other.
func (f *flights[V]) doMany(ctx context.Context, keys []string, epoch uint64, fn func(keys []string) ([]V, error), one func(key string) (V, error)) ([]V, error) {
	type joined struct {
		at int
		c  *flight[V]
	}
	var (
		own   []string
		ownAt []int
		mine  []*flight[V]
		waits []joined
	)
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string]*flight[V]{}
	}
	for i, k := range keys {
		if c, ok := f.calls[k]; ok && c.epoch == epoch {
			c.waiters++
			waits = append(waits, joined{i, c})
			continue
		}
		c := &flight[V]{epoch: epoch, done: make(chan struct{}), err: errBuildPanicked}
		f.calls[k] = c // as in do: an older epoch's build runs on for its own waiters
		own, ownAt, mine = append(own, k), append(ownAt, i), append(mine, c)
	}
	f.mu.Unlock()

	out := make([]V, len(keys))
	if len(own) > 0 {
		if err := f.runMany(own, mine, fn); err != nil {
			return nil, err
		}
		for j, c := range mine {
			out[ownAt[j]] = c.v
		}
	}
	for _, w := range waits {
		select {
		case <-w.c.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		v, err := w.c.v, w.c.err
		if err != nil && isContextErr(err) && ctx.Err() == nil {
			key := keys[w.at]
			v, err = f.do(ctx, key, epoch, func() (V, error) { return one(key) })
		}
		if err != nil {
			return nil, err
		}
		out[w.at] = v
	}
	return out, nil
}

// runMany runs fn for the builds mine of keys, and ends them with its
// values (or its error).
func (f *flights[V]) runMany(keys []string, mine []*flight[V], fn func(keys []string) ([]V, error)) error {
	defer func() {
		f.mu.Lock()
		for j, c := range mine {
			if f.calls[keys[j]] == c {
				delete(f.calls, keys[j])
			}
		}
		f.mu.Unlock()
		for _, c := range mine {
			close(c.done)
		}
	}()
	vs, err := fn(keys)
	if err == nil && len(vs) != len(keys) {
		err = errors.New("cache: a build returned the wrong number of values")
	}
	for j, c := range mine {
		if err != nil {
			c.err = err
			continue
		}
		c.v, c.err = vs[j], nil
	}
	return err
}
