package feed

import (
	"context"
	"sync"
	"time"
)

// The public change feed's long poll (GET /api/changes?wait=): a reader
// that found nothing after its revision waits for the namespace's next
// change. It reads again when this process hears of one (a write of its
// own, another replica's announcement) and every AwaitPoll besides (a
// store that announces nothing, an announcement lost).

// AwaitPoll is how often a waiting reader reads again when it hears of
// nothing (a variable for tests).
var AwaitPoll = time.Second

// waiters are the channels of the namespaces someone waits on, each
// closed at the namespace's next change. An entry lives while someone
// waits on it, so the map never grows past the waiting readers.
type waiters struct {
	mu sync.Mutex
	m  map[string]*waiting
}

type waiting struct {
	ch chan struct{}
	n  int
}

// next returns a channel closed at ns's next change, and the function to
// call when no longer waiting.
func (w *waiters) next(ns string) (<-chan struct{}, func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m == nil {
		w.m = map[string]*waiting{}
	}
	e := w.m[ns]
	if e == nil {
		e = &waiting{ch: make(chan struct{})}
		w.m[ns] = e
	}
	e.n++
	done := false
	return e.ch, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if done {
			return
		}
		done = true
		if e.n--; e.n == 0 && w.m[ns] == e {
			delete(w.m, ns)
		}
	}
}

// wake closes ns's channel: its waiters read again.
func (w *waiters) wake(ns string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e := w.m[ns]; e != nil {
		close(e.ch)
		delete(w.m, ns)
	}
}

// Await calls read at once and then whenever namespace ns may have
// changed, until read reports that it found something, returns an error,
// or wait has passed since Await began (it then returns nil: the reader
// found nothing). A context that ends returns its error.
func (f *Feed) Await(ctx context.Context, ns string, wait time.Duration, read func(context.Context) (bool, error)) error {
	deadline := time.Now().Add(wait)
	for {
		// Listening before reading: a change committed after the read
		// began wakes the next round.
		ch, stop := f.waits.next(ns)
		found, err := read(ctx)
		left := time.Until(deadline)
		if err != nil || found || left <= 0 {
			stop()
			return err
		}
		t := time.NewTimer(min(left, AwaitPoll))
		select {
		case <-ch:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			stop()
			return ctx.Err()
		}
		t.Stop()
		stop()
	}
}
