package limits

import "sync"

// Bytes bounds the bytes that requests of all clients hold at once (batch
// bodies, say): each takes what it holds as it grows, and gives it all
// back when it ends. A take past the bound is refused, not queued: the
// request is answered 429 at once and nothing waits holding memory.
type Bytes struct {
	max int64
	why string

	mu   sync.Mutex
	used int64
}

// NewBytes returns a Bytes of max bytes; why says the bound in refusals.
func NewBytes(max int64, why string) *Bytes { return &Bytes{max: max, why: why} }

// Take takes n bytes more, or returns a *Refused when the bound would be
// passed.
func (b *Bytes) Take(n int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.max {
		return &Refused{Why: b.why, RetryAfter: inFlightRetry}
	}
	b.used += n
	return nil
}

// Give gives n bytes back.
func (b *Bytes) Give(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
}

// Used is the bytes taken now.
func (b *Bytes) Used() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}
