package middleware

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"
)

// TestGuardPredicateAndScopeOutcomes: each path through the engine gives
// its status and one observed decision with the outcome and the branch
// that decided it; the predicate is asked only when its answer can change
// the outcome, and a scope or predicate error never allows.
func TestGuardPredicateAndScopeOutcomes(t *testing.T) {
	// The predicate's answer comes from the X-Pred header: yes, no, err,
	// missing, abort.
	var asked int
	pred := func(c *gin.Context, _ string) (bool, error) {
		asked++
		switch c.GetHeader("X-Pred") {
		case "yes":
			return true, nil
		case "err":
			return true, errors.New("down") // "true" with an error must still refuse
		case "missing":
			return false, fmt.Errorf("note 9: %w", ErrResourceNotFound)
		case "abort":
			c.AbortWithStatusJSON(http.StatusTeapot, gin.H{"host": "answered"})
			return false, nil
		}
		return false, nil
	}
	// The scope comes from X-Scope, with the same vocabulary for errors.
	scope := func(c *gin.Context) (string, error) {
		switch s := c.GetHeader("X-Scope"); s {
		case "err":
			return "org-42", errors.New("down")
		case "missing":
			return "", ErrResourceNotFound
		case "abort":
			c.AbortWithStatusJSON(http.StatusGone, gin.H{"host": "answered"})
			return "", nil
		default:
			return s, nil
		}
	}
	ch := scopedFake{fakeChecker: newFakeChecker(), scoped: map[string]map[string][]string{
		"org-42": {"alice": {"cook"}},
	}}
	type row struct {
		name          string
		or, and, scpd bool
		user, p, s    string // user, X-Pred, X-Scope
		status        int
		outcome       GuardOutcome
		by            DecidedBy
		asked         int
	}
	for _, tc := range []row{
		{name: "plain allow", user: "sara", status: 200, outcome: GuardAllowed, by: DecidedByPermission},
		{name: "plain deny", user: "jack", status: 403, outcome: GuardDenied, by: DecidedByPermission},
		{name: "or: holder", or: true, user: "sara", p: "no", status: 200, outcome: GuardAllowed, by: DecidedByPermission},
		{name: "or: predicate admits", or: true, user: "jack", p: "yes", status: 200, outcome: GuardAllowed, by: DecidedByPredicate, asked: 1},
		{name: "or: both refuse", or: true, user: "jack", p: "no", status: 403, outcome: GuardDenied, by: DecidedByPredicate, asked: 1},
		{name: "or: predicate fails", or: true, user: "jack", p: "err", status: 503, outcome: GuardUnavailable, by: DecidedByPredicate, asked: 1},
		{name: "or: not found", or: true, user: "jack", p: "missing", status: 404, outcome: GuardNotFound, by: DecidedByPredicate, asked: 1},
		{name: "or: predicate answers", or: true, user: "jack", p: "abort", status: 418, asked: 1},
		{name: "or: no user", or: true, p: "yes", status: 401, outcome: GuardUnauthenticated, by: DecidedByNone},
		{name: "and: both", and: true, user: "sara", p: "yes", status: 200, outcome: GuardAllowed, by: DecidedByPredicate, asked: 1},
		{name: "and: predicate refuses", and: true, user: "sara", p: "no", status: 403, outcome: GuardDenied, by: DecidedByPredicate, asked: 1},
		{name: "and: requirement refuses", and: true, user: "jack", p: "yes", status: 403, outcome: GuardDenied, by: DecidedByPermission},
		{name: "and: predicate fails", and: true, user: "sara", p: "err", status: 503, outcome: GuardUnavailable, by: DecidedByPredicate, asked: 1},
		{name: "scope allows", scpd: true, user: "alice", s: "org-42", status: 200, outcome: GuardAllowed, by: DecidedByPermission},
		{name: "scope fails", scpd: true, user: "alice", s: "err", status: 503, outcome: GuardUnavailable, by: DecidedByNone},
		{name: "scope not found", scpd: true, user: "alice", s: "missing", status: 404, outcome: GuardNotFound, by: DecidedByNone},
		{name: "scope answers", scpd: true, user: "alice", s: "abort", status: 410},
		{name: "scope not NFC", scpd: true, user: "alice", s: "cafe\u0301", status: 400, outcome: GuardBadRequest, by: DecidedByNone},
		{name: "empty scope", scpd: true, user: "alice", s: "", status: 403, outcome: GuardDenied, by: DecidedByPermission},
		{name: "empty scope, or admits", scpd: true, or: true, user: "alice", p: "yes", status: 200, outcome: GuardAllowed, by: DecidedByPredicate, asked: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obs := &recordingObserver{}
			cfg := GuardConfig{Checker: ch, Resolver: HeaderResolver("X-User"), AnyPermissions: []string{"cook"}, Observer: obs}
			if tc.or {
				cfg.OrIf = pred
			}
			if tc.and {
				cfg.AndIf = pred
			}
			if tc.scpd {
				cfg.Scope = scope
			}
			asked = 0
			w := performRequest(newTestRouter(mustNewGuard(cfg)), http.MethodGet, "/ok", nil,
				"X-User", tc.user, "X-Pred", tc.p, "X-Scope", tc.s)
			if w.Code != tc.status {
				t.Fatalf("status %d %s, want %d", w.Code, w.Body, tc.status)
			}
			if asked != tc.asked {
				t.Errorf("predicate asked %d times, want %d", asked, tc.asked)
			}
			if tc.status == 418 || tc.status == 410 {
				if len(obs.got) != 0 || w.Body.String() != `{"host":"answered"}` {
					t.Errorf("the host's own answer: observed %v, body %s", obs.got, w.Body)
				}
				return
			}
			if len(obs.got) != 1 {
				t.Fatalf("%d decisions observed, want 1", len(obs.got))
			}
			if d := obs.got[0]; d.Outcome != tc.outcome || d.By != tc.by {
				t.Errorf("observed %s by %q, want %s by %q", d.Outcome, d.By, tc.outcome, tc.by)
			}
			switch tc.status {
			case 400:
				assertError(t, w, 400, "Bad Request", "scope is not in Unicode normalization form C")
			case 404:
				assertError(t, w, 404, "Not Found", "not found")
			case 503:
				assertError(t, w, 503, "Service Unavailable", "authorization unavailable")
			}
		})
	}
	if _, err := NewGuard(GuardConfig{Checker: ch, Resolver: HeaderResolver("X-User"), AnyPermissions: []string{"cook"},
		OrIf: pred, AndIf: pred}); !errors.Is(err, ErrInvalidGuardConfig) {
		t.Errorf("OrIf with AndIf: %v, want ErrInvalidGuardConfig", err)
	}
}
