package middleware

import "github.com/gin-gonic/gin"

// GuardOutcome is how a guard decided one request.
type GuardOutcome uint8

// The outcomes of a guard, one per request it decides.
const (
	// GuardAllowed: the user holds what the guard requires; the chain goes on.
	GuardAllowed GuardOutcome = iota
	// GuardDenied: the user is known but lacks it (403).
	GuardDenied
	// GuardUnauthenticated: no user (401).
	GuardUnauthenticated
	// GuardUnavailable: the resolver, the checker, the scope function or
	// the predicate could not decide (503).
	GuardUnavailable
	// GuardBadRequest: the request's scope is not in NFC (400).
	GuardBadRequest
	// GuardNotFound: the scope function or the predicate found no such
	// resource (404).
	GuardNotFound
)

// GuardOutcomes is the number of outcomes, for tables indexed by outcome.
const GuardOutcomes = 6

// String is the outcome as a metric label and a log value.
func (o GuardOutcome) String() string {
	switch o {
	case GuardAllowed:
		return "allowed"
	case GuardDenied:
		return "denied"
	case GuardUnauthenticated:
		return "unauthenticated"
	case GuardUnavailable:
		return "unavailable"
	case GuardBadRequest:
		return "bad_request"
	case GuardNotFound:
		return "not_found"
	}
	return "unknown"
}

// DecidedBy is the branch of a guard whose answer settled a decision.
type DecidedBy uint8

const (
	// DecidedByNone: nothing was checked (no user, a scope that could
	// not be found or is not NFC).
	DecidedByNone DecidedBy = iota
	// DecidedByPermission: the guard's requirement (its permissions or
	// role), answered by the checker.
	DecidedByPermission
	// DecidedByPredicate: the host's predicate (GuardConfig.OrIf or
	// AndIf), asked because the requirement alone did not settle it.
	DecidedByPredicate
)

// String is the branch as a metric label and a log value ("" for none).
func (b DecidedBy) String() string {
	switch b {
	case DecidedByPermission:
		return "permission"
	case DecidedByPredicate:
		return "predicate"
	}
	return ""
}

// GuardDecision is what a guard decided about one request, for a
// GuardObserver. By is the branch whose answer settled it: with OrIf, an
// admission by the requirement is DecidedByPermission and any answer of
// the predicate (asked after a refusal) DecidedByPredicate; with AndIf, a
// refusal by the requirement is DecidedByPermission and the predicate's
// answer after an admission DecidedByPredicate. User is empty when there
// is none (unauthenticated) and Scope when the guard is not scoped; Names
// are the guard's required permissions (or its one role), shared: an
// observer must not change them.
type GuardDecision struct {
	Outcome GuardOutcome
	By      DecidedBy
	User    string
	Scope   string
	Role    bool // Names holds a role, not permissions
	All     bool // every one of Names is required, not any
	Names   []string
}

// GuardObserver sees every decision of a guard (GuardConfig.Observer):
// metrics, a decision log. It runs on the request path, before the
// refusal is written or the chain goes on, so it must be cheap for an
// allowed request; it must not write the response.
type GuardObserver interface {
	GuardDecided(c *gin.Context, d GuardDecision)
}

// ClientRequestID is the caller's own correlation id of the request: the
// one RequestID kept, or, on a route without RequestID (a host's route),
// the X-Request-ID header when it is sane (1 to 64 characters of A-Z a-z
// 0-9 . _ -); empty otherwise.
func ClientRequestID(c *gin.Context) string {
	if id := ClientRequestIDFrom(c); id != "" {
		return id
	}
	if theirs := c.GetHeader(HeaderRequestID); saneRequestID(theirs) {
		return theirs
	}
	return ""
}
