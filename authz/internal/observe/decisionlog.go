package observe

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/rolegate/rolegate/middleware"
)

// Values of DecisionLog and DecisionAudit (AUTH_DECISION_LOG,
// AUTH_DECISION_AUDIT).
const (
	DecisionOff    = "off"
	DecisionDenied = "denied"
	DecisionAll    = "all"
)

// DecisionLog is the compiled AUTH_DECISION_LOG, AUTH_DECISION_LOG_SAMPLE,
// AUTH_DECISION_LOG_PER_SECOND and AUTH_DECISION_AUDIT.
type DecisionLog struct {
	LogDenied, LogAllowed bool
	Sample                float64 // share logged; 1 logs every one
	AuditDenied           bool
	// Limit bounds the records written per second, per outcome: anybody
	// can send requests a guard refuses (no credentials at all is a 401
	// decision), so without it "denied" lets a stranger write one log
	// record per request; per outcome, so that a flood of anonymous 401s
	// cannot crowd out the 403s and 503s. Records over it are counted in
	// dropped (and in rolegate_decision_log_dropped_total); the next
	// record of that outcome says how many, and a warning is logged at
	// most every 10 s.
	Limit   *[middleware.GuardOutcomes]*rate.Limiter
	warn    *rate.Limiter
	dropped *[middleware.GuardOutcomes]atomic.Int64
}

// NewDecisionLog compiles the settings; mode and audit are checked by
// DecisionLogProblems.
func NewDecisionLog(mode string, sample float64, perSecond int, audit string) DecisionLog {
	mode = strings.ToLower(mode)
	limits := new([middleware.GuardOutcomes]*rate.Limiter)
	for o := range limits {
		limits[o] = rate.NewLimiter(rate.Limit(perSecond), 2*perSecond)
	}
	return DecisionLog{
		LogDenied:   mode == DecisionDenied || mode == DecisionAll,
		LogAllowed:  mode == DecisionAll,
		Sample:      sample,
		AuditDenied: strings.ToLower(audit) == DecisionDenied,
		Limit:       limits,
		warn:        rate.NewLimiter(rate.Every(10*time.Second), 1),
		dropped:     new([middleware.GuardOutcomes]atomic.Int64),
	}
}

// On reports whether guards report to the log or the audit at all.
func (d DecisionLog) On() bool { return d.LogDenied || d.AuditDenied }

// Chosen reports whether a decision of this outcome is sampled for the
// log (before the rate bound).
func (d DecisionLog) Chosen(o middleware.GuardOutcome) bool {
	if o == middleware.GuardAllowed && !d.LogAllowed || !d.LogDenied {
		return false
	}
	return d.Sample >= 1 || rand.Float64() < d.Sample
}

// Take applies the rate bound to one chosen decision. ok: log it, with
// dropped, the records of its outcome dropped since the last one. !ok:
// it was dropped; warn says to log the (rate-limited) warning, with the
// count so far.
func (d DecisionLog) Take(o middleware.GuardOutcome) (ok bool, dropped int64, warn bool) {
	if !d.Limit[o].Allow() {
		n := d.dropped[o].Add(1)
		return false, n, d.warn.Allow()
	}
	return true, d.dropped[o].Swap(0), false
}

// DecisionLogProblems are the bad decision log settings.
func DecisionLogProblems(mode string, sample float64, audit string) []error {
	var errs []error
	switch strings.ToLower(mode) {
	case "", DecisionOff, DecisionDenied, DecisionAll:
	default:
		errs = append(errs, fmt.Errorf("AUTH_DECISION_LOG=%q is unknown (use off, denied or all)", mode))
	}
	if sample < 0 || sample > 1 {
		errs = append(errs, fmt.Errorf("AUTH_DECISION_LOG_SAMPLE=%v is not above 0 and at most 1", sample))
	}
	switch strings.ToLower(audit) {
	case "", DecisionOff, DecisionDenied:
	default:
		errs = append(errs, fmt.Errorf("AUTH_DECISION_AUDIT=%q is unknown (use off or denied)", audit))
	}
	return errs
}
