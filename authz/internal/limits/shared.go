package limits

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sync"
	"time"
)

// Shared bounds the requests of all clients running at once, and shares
// them fairly. A per-client bound (InFlight) alone lets twenty clients run
// twenty times as much as one: on two cores, eighty heavy reads at once
// made another client's reads wait 180 ms. With every slot taken a request
// waits, at most Wait, and each slot that frees goes to the waiting client
// with the fewest requests in flight (running and waiting) and, among
// those, the least use of the slots lately (the time it held them, halved
// every second; the longest waiting among equals): a client that sends
// its requests one at a time is served before clients that keep several
// waiting, even when one of those has nothing running at the moment. Past
// Wait a request is refused (a *Refused).
//
// A client's requests waiting are bounded by its InFlight, so the queue
// holds at most that many per client.
//
// Slots are not taken back from a request that holds one, so with every
// slot held by long requests (a user's thousands of memberships read after
// each change) a short one waits for a whole long one however light its
// client: with the one slot of two cores, another client's reads took 25
// ms at the median behind 5 keys reloading such users, its p99 42 to 60 ms.
// So one request more may run, in the light lane: a client with nothing
// running or waiting whose use lately is below that of every client
// holding a slot, or whose requests have held a slot a quarter as long as
// theirs or less (a client sending short reads one after another uses the
// slots as much as one long read, and is still not to wait for one). It
// waits for none, and runs beside them. A client new to the slots (no use
// yet) holding one closes the lane, so many fresh keys cannot run heavy
// requests through it together; a client with no request ended has no
// length to be short by; clients that keep the lane busy with long
// requests build up use and length, and go back to the queue.
type Shared struct {
	max  int
	wait time.Duration
	why  string

	mu      sync.Mutex
	running int
	clients map[string]int   // client -> requests running (never 0)
	waiting map[string]int   // client -> requests waiting (never 0)
	use     map[string]usage // client -> its use of the slots lately
	queue   []*waiter        // in arrival order
	lane    bool             // the light lane is taken (see Shared)
}

// usage is a client's use of the slots: seconds held, decayed by
// useHalfLife, as of at.
type usage struct {
	held float64
	at   time.Time
	// each is the time a request of the client held a slot, averaged
	// over its last requests (0 before its first ended).
	each float64
}

// useHalfLife is how fast a client's past use of the slots is forgotten.
const useHalfLife = time.Second

// now decays u to t.
func (u usage) now(t time.Time) float64 {
	if u.held == 0 {
		return 0
	}
	return u.held * math.Exp2(-t.Sub(u.at).Seconds()/useHalfLife.Seconds())
}

// useTracked is how many clients' use Shared remembers past their last
// request before it forgets the smallest (see forgetLocked).
const useTracked = 1024

type waiter struct {
	client  string
	granted chan struct{} // closed when a slot is handed over
}

// NewShared returns a Shared of max requests running at once, each
// waiting at most wait for a slot; why says the bound in refusals.
func NewShared(max int, wait time.Duration, why string) *Shared {
	return &Shared{max: max, wait: wait, why: why, clients: map[string]int{}, waiting: map[string]int{}, use: map[string]usage{}}
}

// Acquire takes a slot for client: at once when one is free and nobody
// waits, else after waiting its turn, at most s.wait (a *Refused then) or
// until ctx ends (its error). release gives the slot back; call it once.
func (s *Shared) Acquire(ctx context.Context, client string) (release func(), err error) {
	return s.acquire(ctx, client, s.wait)
}

// Resume is Acquire with no bound on the wait but ctx's: for a request
// that gave its slot back for a while (a list writing to a slow reader)
// and must go on.
func (s *Shared) Resume(ctx context.Context, client string) (release func(), err error) {
	return s.acquire(ctx, client, 0)
}

func (s *Shared) acquire(ctx context.Context, client string, wait time.Duration) (func(), error) {
	s.mu.Lock()
	if s.running < s.max && len(s.queue) == 0 {
		s.takeLocked(client)
		s.mu.Unlock()
		return s.releaser(client, false), nil
	}
	if s.lightLocked(client, time.Now()) {
		s.lane = true
		s.clients[client]++
		s.mu.Unlock()
		return s.releaser(client, true), nil
	}
	w := &waiter{client: client, granted: make(chan struct{})}
	s.queue = append(s.queue, w)
	s.waiting[client]++
	s.mu.Unlock()

	var timeout <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-w.granted:
		return s.releaser(client, false), nil
	case <-timeout:
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-w.granted: // handed over meanwhile: take it after all
		return s.releaser(client, false), nil
	default:
	}
	s.dropLocked(w)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return nil, &Refused{Why: s.why, RetryAfter: inFlightRetry}
}

func (s *Shared) takeLocked(client string) {
	s.running++
	s.clients[client]++
}

// lightLocked reports whether client may take the light lane now: the
// lane is free, the client has nothing running or waiting, and its use
// lately is below that of every client holding a slot, or its requests
// are a quarter as long as theirs or shorter (see Shared).
func (s *Shared) lightLocked(client string, now time.Time) bool {
	if s.lane || s.running == 0 || s.clients[client] > 0 || s.waiting[client] > 0 {
		return false
	}
	mine := s.use[client]
	lighter, shorter := true, mine.each > 0
	for c := range s.clients {
		theirs := s.use[c]
		lighter = lighter && theirs.now(now) > mine.now(now)
		shorter = shorter && theirs.each > shortBy*mine.each
	}
	return lighter || shorter
}

// eachWeight is how many of a client's last requests its usage.each
// averages over, about; shortBy is how much shorter than every holder's a
// client's requests must be for the light lane when its use is not lower
// (see Shared).
const (
	eachWeight = 8
	shortBy    = 4
)

// releaser gives client's slot (the light lane's, when lane) back, once,
// counting the time it held it, and hands a slot freed to the waiter that
// comes first (see Shared).
func (s *Shared) releaser(client string, lane bool) func() {
	var once sync.Once
	start := time.Now()
	return func() {
		once.Do(func() {
			now := time.Now()
			s.mu.Lock()
			defer s.mu.Unlock()
			if lane {
				s.lane = false
			} else {
				s.running--
			}
			if s.clients[client] <= 1 {
				delete(s.clients, client)
			} else {
				s.clients[client]--
			}
			u, took := s.use[client], now.Sub(start).Seconds()
			each := took
			if u.each > 0 {
				each = u.each + (took-u.each)/eachWeight
			}
			s.use[client] = usage{held: u.now(now) + took, at: now, each: each}
			if len(s.use) > useTracked {
				s.forgetLocked(now)
			}
			s.grantLocked(now)
		})
	}
}

// grantLocked hands free slots to waiters: the fewest in flight first,
// then the least use lately, then the longest waiting.
func (s *Shared) grantLocked(now time.Time) {
	for s.running < s.max && len(s.queue) > 0 {
		inFlight := func(client string) int { return s.clients[client] + s.waiting[client] }
		best, bestN, bestUse := 0, inFlight(s.queue[0].client), s.use[s.queue[0].client].now(now)
		for i, w := range s.queue[1:] {
			n, use := inFlight(w.client), s.use[w.client].now(now)
			if n < bestN || n == bestN && use < bestUse {
				best, bestN, bestUse = i+1, n, use
			}
		}
		w := s.queue[best]
		s.unqueueLocked(best)
		s.takeLocked(w.client)
		close(w.granted)
	}
}

// unqueueLocked takes the i-th waiter out of the queue.
func (s *Shared) unqueueLocked(i int) {
	c := s.queue[i].client
	s.queue = append(s.queue[:i], s.queue[i+1:]...)
	if s.waiting[c] <= 1 {
		delete(s.waiting, c)
	} else {
		s.waiting[c]--
	}
}

// forgetLocked forgets the use of the clients with nothing running nor
// waiting whose use has decayed most, down to half of useTracked: anyone
// may make up clients (keys), and one that comes back is simply new.
func (s *Shared) forgetLocked(now time.Time) {
	type aged struct {
		client string
		use    float64
	}
	var idle []aged
	for c, u := range s.use {
		if s.clients[c] == 0 && s.waiting[c] == 0 {
			idle = append(idle, aged{c, u.now(now)})
		}
	}
	slices.SortFunc(idle, func(a, b aged) int { return cmp.Compare(a.use, b.use) })
	for _, a := range idle[:max(0, min(len(idle), len(s.use)-useTracked/2))] {
		delete(s.use, a.client)
	}
}

func (s *Shared) dropLocked(w *waiter) {
	for i, q := range s.queue {
		if q == w {
			s.unqueueLocked(i)
			return
		}
	}
}

// Running is how many requests hold a slot now; Waiting how many wait.
func (s *Shared) Running() (running, waiting int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	running = s.running
	if s.lane {
		running++
	}
	return running, len(s.queue)
}
