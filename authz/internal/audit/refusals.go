package audit

import (
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RefusalBudget bounds how many refused requests are written to the audit
// table per second. Anyone can send requests that are refused, and each
// record is a write to the store: without a bound, a flood of bad
// requests fills the table and loads the database. Changes are never
// subject to it; they are recorded in their own transaction, always.
//
// The budget is per client (per fingerprint): one client's flood uses up
// its own budget, not another's, so nobody can crowd a client's refusals
// out of its audit log. Every request without an accepted key (missing,
// malformed, or on a closed admin plane not an admin key) shares the
// budget of "no client". At most RefusalClientsTracked clients are
// tracked; beyond that (only open mode has that many), new ones share one
// overflow budget. A total of refusalTotalShare budgets per second bounds
// the writes of many clients at once.
//
// Refusals over a budget are counted, and that budget's next record says
// how many were skipped; a warning is logged at most every 10 s.
type RefusalBudget struct {
	perSecond int
	total     *rate.Limiter
	warn      *rate.Limiter

	mu        sync.Mutex
	clients   map[string]*clientRefusals // fingerprint ("" for no client) -> its budget
	overflow  *clientRefusals
	nextSweep time.Time
}

// clientRefusals is one client's budget and its refusals skipped since its
// last record.
type clientRefusals struct {
	limit   *rate.Limiter
	skipped int64
}

// RefusalClientsTracked is how many clients get a budget of their own.
const (
	RefusalClientsTracked = 1024
	refusalTotalShare     = 10
)

func NewRefusalBudget(perSecond int) *RefusalBudget {
	return &RefusalBudget{
		perSecond: perSecond,
		total:     rate.NewLimiter(rate.Limit(perSecond*refusalTotalShare), 2*perSecond*refusalTotalShare),
		warn:      rate.NewLimiter(rate.Every(10*time.Second), 1),
		clients:   map[string]*clientRefusals{},
		overflow:  newClientRefusals(perSecond),
	}
}

func newClientRefusals(perSecond int) *clientRefusals {
	return &clientRefusals{limit: rate.NewLimiter(rate.Limit(perSecond), 2*perSecond)}
}

// Take reports whether a refusal of the client with this fingerprint may
// be recorded now; when it may, note is what to append to its outcome
// (empty unless that budget skipped refusals since its last record).
// warnNow reports that a skipped refusal should be logged.
func (b *RefusalBudget) Take(fingerprint string) (ok bool, note string, warnNow bool) {
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	cr := b.budgetOf(fingerprint, now)
	if !cr.limit.AllowN(now, 1) || !b.total.AllowN(now, 1) {
		cr.skipped++
		return false, "", b.warn.AllowN(now, 1)
	}
	if n := cr.skipped; n > 0 {
		cr.skipped = 0
		note = " (" + strconv.FormatInt(n, 10) + " earlier refusals not recorded: over AUTH_AUDIT_REFUSALS_PER_SECOND)"
	}
	return true, note, false
}

// budgetOf finds or makes the client's budget; b.mu is held.
func (b *RefusalBudget) budgetOf(fingerprint string, now time.Time) *clientRefusals {
	if cr := b.clients[fingerprint]; cr != nil {
		return cr
	}
	if len(b.clients) >= RefusalClientsTracked && !now.Before(b.nextSweep) {
		b.sweep(now)
	}
	if len(b.clients) >= RefusalClientsTracked {
		return b.overflow
	}
	cr := newClientRefusals(b.perSecond)
	b.clients[fingerprint] = cr
	return cr
}

// sweep forgets the clients whose budget is full again and who have no
// skipped refusals to report: a fresh budget is the same, so forgetting
// them loses nothing. When none can go, the next sweep waits a second, so
// a flood of new clients does not sweep on every request.
func (b *RefusalBudget) sweep(now time.Time) {
	full := float64(2 * b.perSecond)
	for fp, cr := range b.clients {
		if cr.skipped == 0 && cr.limit.TokensAt(now) >= full {
			delete(b.clients, fp)
		}
	}
	if len(b.clients) >= RefusalClientsTracked {
		b.nextSweep = now.Add(time.Second)
	}
}
