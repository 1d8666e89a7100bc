package limits

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// ClientsTracked is how many clients WriteRate and InFlight keep an entry
// of their own for; beyond it, new clients share one overflow entry.
const ClientsTracked = 4096

// WriteRate is a token bucket per client: PerSecond writes a second, in
// bursts of twice that. Buckets that are full again are forgotten (a
// fresh one is the same), so the table holds only clients that wrote in
// the last couple of seconds, at most ClientsTracked of them.
type WriteRate struct {
	perSecond int
	setting   string

	mu        sync.Mutex
	clients   map[string]*rate.Limiter
	overflow  *rate.Limiter
	nextSweep time.Time
}

// NewWriteRate returns a WriteRate of perSecond writes per client and
// second; setting names it in refusals.
func NewWriteRate(perSecond int, setting string) *WriteRate {
	return &WriteRate{perSecond: perSecond, setting: setting, clients: map[string]*rate.Limiter{},
		overflow: rate.NewLimiter(rate.Limit(perSecond), 2*perSecond)}
}

// Allow takes one write from client's bucket, or returns a *Refused
// saying when the next one will be there.
func (w *WriteRate) Allow(client string) error {
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	l := w.limiterOf(client, now)
	if l.AllowN(now, 1) {
		return nil
	}
	missing := 1 - l.TokensAt(now)
	return &Refused{Setting: w.setting, RetryAfter: time.Duration(missing / float64(w.perSecond) * float64(time.Second))}
}

// Ready reports, without taking anything, whether client has a write
// left now: a *Refused when Allow would refuse. A batch asks before its
// body is read, so that a client over its rate cannot make the process
// hold bodies it will refuse.
func (w *WriteRate) Ready(client string) error {
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	l := w.clients[client]
	if l == nil {
		if len(w.clients) < ClientsTracked {
			return nil // a fresh bucket is full
		}
		l = w.overflow
	}
	if tokens := l.TokensAt(now); tokens < 1 {
		return &Refused{Setting: w.setting, RetryAfter: time.Duration((1 - tokens) / float64(w.perSecond) * float64(time.Second))}
	}
	return nil
}

// Tracked is how many clients have a bucket of their own.
func (w *WriteRate) Tracked() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.clients)
}

// limiterOf finds or makes client's bucket; w.mu is held.
func (w *WriteRate) limiterOf(client string, now time.Time) *rate.Limiter {
	if l := w.clients[client]; l != nil {
		return l
	}
	if len(w.clients) >= ClientsTracked && !now.Before(w.nextSweep) {
		full := float64(2 * w.perSecond)
		for c, l := range w.clients {
			if l.TokensAt(now) >= full {
				delete(w.clients, c)
			}
		}
		if len(w.clients) >= ClientsTracked {
			// None could go: do not sweep again on every new client.
			w.nextSweep = now.Add(time.Second)
		}
	}
	if len(w.clients) >= ClientsTracked {
		return w.overflow
	}
	l := rate.NewLimiter(rate.Limit(w.perSecond), 2*w.perSecond)
	w.clients[client] = l
	return l
}
