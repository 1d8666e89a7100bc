package limits

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// ErrTooMany: a client is over one of its limits (HTTP 429). Nothing was
// done; the same request may succeed after Refused.RetryAfter.
var ErrTooMany = errors.New("too many requests")

// Refused is the error of a refused request: which setting bounds it and
// when a retry may succeed.
type Refused struct {
	Setting    string        // the setting that bounds it, e.g. AUTH_OPEN_WRITES_PER_SECOND
	Why        string        // instead of Setting, for a bound no setting names
	RetryAfter time.Duration // at least a second
}

func (r *Refused) Error() string {
	if r.Why != "" {
		return fmt.Sprintf("%v: %s; retry in %d s", ErrTooMany, r.Why, r.Seconds())
	}
	return fmt.Sprintf("%v: over %s for this client; retry in %d s", ErrTooMany, r.Setting, r.Seconds())
}

// Is makes errors.Is(err, ErrTooMany) hold.
func (r *Refused) Is(target error) bool { return target == ErrTooMany }

// Seconds is RetryAfter in whole seconds, rounded up, at least 1: the
// value of a Retry-After header.
func (r *Refused) Seconds() int {
	return max(1, int(math.Ceil(r.RetryAfter.Seconds())))
}

// RetryAfter returns the Retry-After seconds of err when it is (or wraps)
// a *Refused.
func RetryAfter(err error) (int, bool) {
	var r *Refused
	if errors.As(err, &r) {
		return r.Seconds(), true
	}
	return 0, false
}
