package middleware

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"

	"github.com/gin-gonic/gin"
)

// recordingObserver keeps every decision it sees.
type recordingObserver struct{ got []GuardDecision }

func (o *recordingObserver) GuardDecided(_ *gin.Context, d GuardDecision) { o.got = append(o.got, d) }

// failingChecker cannot decide.
type failingChecker struct{}

func (failingChecker) UserHasPermission(context.Context, string, string) (bool, error) {
	return false, errors.New("store down")
}
func (failingChecker) UserHasRole(context.Context, string, string) (bool, error) {
	return false, errors.New("store down")
}

// The observer sees exactly one decision per request, with the outcome
// the status says, the user when there is one, and the guard's names.
func TestGuardObserver(t *testing.T) {
	ch := mapChecker{"sara": {"cook": {}}}
	resolver := func(c *gin.Context) (string, error) {
		switch u := c.GetHeader("X-User"); u {
		case "down":
			return "", ErrResolverUnavailable
		default:
			return u, nil
		}
	}
	for _, tc := range []struct {
		name    string
		checker Checker
		user    string
		status  int
		outcome GuardOutcome
		seen    string // the user in the decision
	}{
		{"allowed", ch, "sara", http.StatusOK, GuardAllowed, "sara"},
		{"denied", ch, "jack", http.StatusForbidden, GuardDenied, "jack"},
		{"no user", ch, "", http.StatusUnauthorized, GuardUnauthenticated, ""},
		{"resolver down", ch, "down", http.StatusServiceUnavailable, GuardUnavailable, ""},
		{"checker down", failingChecker{}, "sara", http.StatusServiceUnavailable, GuardUnavailable, "sara"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obs := &recordingObserver{}
			g, err := NewGuard(GuardConfig{Checker: tc.checker, Resolver: resolver,
				AllPermissions: []string{"cook"}, Observer: obs})
			if err != nil {
				t.Fatal(err)
			}
			w := performRequest(newTestRouter(g), http.MethodGet, "/ok", nil, "X-User", tc.user)
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d", w.Code, tc.status)
			}
			if len(obs.got) != 1 {
				t.Fatalf("%d decisions observed, want 1", len(obs.got))
			}
			d := obs.got[0]
			if d.Outcome != tc.outcome || d.User != tc.seen || !d.All || d.Role || !slices.Equal(d.Names, []string{"cook"}) {
				t.Errorf("decision %+v, want %s for %q", d, tc.outcome, tc.seen)
			}
		})
	}
	if s := GuardOutcome(GuardOutcomes).String(); s != "unknown" {
		t.Errorf("an outcome out of range is %q", s)
	}
}

// ClientRequestID falls back to a sane X-Request-ID header on a route
// without RequestID, and ignores one that is not.
func TestClientRequestIDWithoutRequestID(t *testing.T) {
	var got string
	r := gin.New()
	r.GET("/x", func(c *gin.Context) { got = ClientRequestID(c) })
	performRequest(r, http.MethodGet, "/x", nil, HeaderRequestID, "corr-42")
	if got != "corr-42" {
		t.Errorf("got %q", got)
	}
	performRequest(r, http.MethodGet, "/x", nil, HeaderRequestID, "bad id\n<script>")
	if got != "" {
		t.Errorf("an insane id came through: %q", got)
	}
}
