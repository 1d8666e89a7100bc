package limits

import (
	"context"
	"slices"
	"sync"
	"time"
)

// InFlight bounds the requests of one client running at once: at most
// Max per client. A client's entry lives while it has a request in
// flight, so the table holds at most ClientsTracked clients; beyond that,
// new clients share one overflow entry of Max.
type InFlight struct {
	max     int
	setting string
	why     string // see NewInFlightWhy

	mu       sync.Mutex
	clients  map[string]int             // client -> requests in flight (never 0)
	waiters  map[string][]chan struct{} // client -> AcquireWait calls waiting, oldest first
	overflow int
}

// NewInFlight returns an InFlight of max requests per client; setting
// names it in refusals.
func NewInFlight(max int, setting string) *InFlight {
	return &InFlight{max: max, setting: setting, clients: map[string]int{}, waiters: map[string][]chan struct{}{}}
}

// NewInFlightWhy is NewInFlight for a bound no setting names; why says
// it in refusals.
func NewInFlightWhy(max int, why string) *InFlight {
	return &InFlight{max: max, why: why, clients: map[string]int{}, waiters: map[string][]chan struct{}{}}
}

// inFlightRetry is the Retry-After of a refusal: requests that read the
// store are expected to end well within it.
const inFlightRetry = time.Second

// Acquire takes a slot of client's, or returns a *Refused when it has
// Max requests in flight. release gives the slot back; call it once.
func (f *InFlight) Acquire(client string) (release func(), err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, tracked := f.clients[client]
	if !tracked && len(f.clients) >= ClientsTracked {
		if f.overflow >= f.max {
			return nil, &Refused{Setting: f.setting, Why: f.why, RetryAfter: inFlightRetry}
		}
		f.overflow++
		return f.releaser(func() { f.overflow-- }), nil
	}
	if n >= f.max {
		return nil, &Refused{Setting: f.setting, Why: f.why, RetryAfter: inFlightRetry}
	}
	f.clients[client] = n + 1
	return f.releaser(func() { f.giveLocked(client) }), nil
}

// AcquireWait is Acquire that, when client has Max in flight, waits up
// to wait for one of them to end (its slot is handed over) before it
// refuses: a client sending more than its share at once is held to the
// pace of its own requests instead of answered at once. Eight loops of one
// stranger, four of them refused every time, sent over 5,000 refusals a
// second, whose handling took the CPU another client needed.
func (f *InFlight) AcquireWait(ctx context.Context, client string, wait time.Duration) (release func(), err error) {
	release, err = f.Acquire(client)
	if err == nil || wait <= 0 {
		return release, err
	}
	f.mu.Lock()
	n, tracked := f.clients[client]
	if !tracked { // the overflow entry, or freed meanwhile: no waiting
		f.mu.Unlock()
		return f.Acquire(client)
	}
	if n < f.max { // one of its slots ended meanwhile
		f.clients[client] = n + 1
		f.mu.Unlock()
		return f.releaser(func() { f.giveLocked(client) }), nil
	}
	handed := make(chan struct{})
	f.waiters[client] = append(f.waiters[client], handed)
	f.mu.Unlock()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-handed:
		return f.releaser(func() { f.giveLocked(client) }), nil
	case <-t.C:
	case <-ctx.Done():
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-handed: // handed over meanwhile: take it after all
		return f.releaser(func() { f.giveLocked(client) }), nil
	default:
	}
	list := slices.DeleteFunc(f.waiters[client], func(c chan struct{}) bool { return c == handed })
	if len(list) == 0 {
		delete(f.waiters, client)
	} else {
		f.waiters[client] = list
	}
	return nil, err
}

// giveLocked gives back one of client's slots: to its oldest waiter, if
// any, else to the table.
func (f *InFlight) giveLocked(client string) {
	if list := f.waiters[client]; len(list) > 0 {
		close(list[0])
		if len(list) == 1 {
			delete(f.waiters, client)
		} else {
			f.waiters[client] = list[1:]
		}
		return
	}
	if f.clients[client] <= 1 {
		delete(f.clients, client)
	} else {
		f.clients[client]--
	}
}

// releaser runs give under f.mu, once.
func (f *InFlight) releaser(give func()) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			give()
		})
	}
}

// Tracked is how many clients have requests in flight in their own
// entry.
func (f *InFlight) Tracked() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.clients)
}
