package authz

import (
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// refusalBudget bounds how many refused requests are written to the audit
// table per second. Anyone can send requests that are refused (any UUID
// v4 is a valid client key, and a missing key is refused too), and each
// record is a write to the store: without a bound, a flood of bad
// requests fills the table and loads the database. Changes are never
// subject to it; they are recorded in their own transaction, always.
//
// Refusals over the budget are counted, and the next record written says
// how many were skipped; a warning is logged at most every 10 s.
type refusalBudget struct {
	limit   *rate.Limiter
	warn    *rate.Limiter
	skipped atomic.Int64
}

func newRefusalBudget(perSecond int) *refusalBudget {
	return &refusalBudget{
		limit: rate.NewLimiter(rate.Limit(perSecond), 2*perSecond),
		warn:  rate.NewLimiter(rate.Every(10*time.Second), 1),
	}
}

// take reports whether a refusal may be recorded now; when it may, note is
// what to append to its outcome (empty unless refusals were skipped
// since the last record). warnNow reports that a skipped refusal should be
// logged.
func (b *refusalBudget) take() (ok bool, note string, warnNow bool) {
	if !b.limit.Allow() {
		b.skipped.Add(1)
		return false, "", b.warn.Allow()
	}
	if n := b.skipped.Swap(0); n > 0 {
		note = " (" + strconv.FormatInt(n, 10) + " earlier refusals not recorded: over AUTH_AUDIT_REFUSALS_PER_SECOND)"
	}
	return true, note, false
}
