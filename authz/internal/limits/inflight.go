package limits

import (
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
	clients  map[string]int // client -> requests in flight (never 0)
	overflow int
}

// NewInFlight returns an InFlight of max requests per client; setting
// names it in refusals.
func NewInFlight(max int, setting string) *InFlight {
	return &InFlight{max: max, setting: setting, clients: map[string]int{}}
}

// NewInFlightWhy is NewInFlight for a bound no setting names; why says
// it in refusals.
func NewInFlightWhy(max int, why string) *InFlight {
	return &InFlight{max: max, why: why, clients: map[string]int{}}
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
	return f.releaser(func() {
		if f.clients[client] <= 1 {
			delete(f.clients, client)
		} else {
			f.clients[client]--
		}
	}), nil
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
