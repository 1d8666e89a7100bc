package loginx

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// maxThrottled bounds the addresses the login throttle remembers, so that
// requests from ever new addresses cannot grow memory without bound.
const maxThrottled = 10_000

// throttle is a token bucket per remote address: a burst of perMinute
// attempts, refilled at perMinute a minute. When maxThrottled addresses
// are remembered, those whose bucket is full again are forgotten; if all
// are still limited, new addresses share one bucket (they are throttled
// together rather than let through).
type throttle struct {
	perMinute float64
	now       func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// overflowKey is the shared bucket of addresses beyond maxThrottled.
const overflowKey = ""

func newThrottle(perMinute int, now func() time.Time) *throttle {
	if perMinute < 0 {
		return nil
	}
	return &throttle{perMinute: float64(perMinute), now: now, buckets: map[string]*bucket{}}
}

// allow takes one attempt from addr's bucket; when empty it says how long
// until the next attempt is allowed. A nil throttle allows everything.
func (t *throttle) allow(addr string) (bool, time.Duration) {
	if t == nil {
		return true, 0
	}
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buckets[addr]
	if b == nil {
		if len(t.buckets) >= maxThrottled {
			t.forgetRefilled(now)
		}
		if len(t.buckets) >= maxThrottled {
			addr = overflowKey
		}
		if b = t.buckets[addr]; b == nil {
			b = &bucket{tokens: t.perMinute, last: now}
			t.buckets[addr] = b
		}
	}
	b.tokens = t.refilled(b, now)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) / t.perMinute * float64(time.Minute))
	return false, wait
}

func (t *throttle) refilled(b *bucket, now time.Time) float64 {
	return math.Min(t.perMinute, b.tokens+now.Sub(b.last).Minutes()*t.perMinute)
}

func (t *throttle) forgetRefilled(now time.Time) {
	for k, b := range t.buckets {
		if t.refilled(b, now) >= t.perMinute {
			delete(t.buckets, k)
		}
	}
}

func tooManyAttempts(wait time.Duration) *apiError {
	secs := int(math.Ceil(wait.Seconds()))
	return &apiError{http.StatusTooManyRequests, "too-many-requests",
		"too many login attempts from this address; try again in " + strconv.Itoa(max(secs, 1)) + " s"}
}
