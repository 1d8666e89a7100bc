package authz

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// A stranger without credentials gets a 401 decision on every request; with
// AUTH_DECISION_LOG=denied each one used to be a log record. The log is
// bounded by AUTH_DECISION_LOG_PER_SECOND per outcome: the excess is
// counted, warned about, and the next record of that outcome says how many
// were dropped; a flood of 401s leaves the 403s their own budget.
func TestDecisionLogBounded(t *testing.T) {
	buf := &syncBuffer{}
	h := newMetricsHost(t, storagetest.SQLite(t), func(cfg *Config) {
		logTo(buf)(cfg)
		cfg.DecisionLog = "denied"
		cfg.DecisionLogPerSecond = 1
	})
	start := time.Now()
	const flood = 30
	for range flood {
		if code, _ := h.get(t, "/notes/1"); code != http.StatusUnauthorized {
			t.Fatalf("status %d, want 401", code)
		}
	}
	logged := len(decisionRecords(t, buf))
	// A burst of 2, and one more per second the requests took.
	if most := 2 + int(time.Since(start).Seconds()) + 1; logged < 2 || logged > most {
		t.Errorf("%d of %d refusals logged, want 2 to %d", logged, flood, most)
	}
	if got := gathered(t, h.reg, "rolegate_decision_log_dropped_total"); got != float64(flood-logged) {
		t.Errorf("rolegate_decision_log_dropped_total = %v, want %d", got, flood-logged)
	}
	if !strings.Contains(buf.String(), "over AUTH_DECISION_LOG_PER_SECOND") {
		t.Errorf("no warning about the dropped records:\n%s", buf)
	}
	// The anonymous flood did not use up the budget of 403s.
	h.get(t, "/notes/1", "X-User", "jack")
	recs := decisionRecords(t, buf)
	if last := recs[len(recs)-1]; last["outcome"] != "denied" || last["dropped_before"] != nil {
		t.Errorf("a 403 after the flood of 401s: last record %v, want the 403's", last)
	}
	// With room again, the next 401 record carries the count dropped before it.
	h.az.decisions.Limit[middleware.GuardUnauthenticated].SetLimit(rate.Inf)
	h.get(t, "/notes/1")
	recs = decisionRecords(t, buf)
	last := recs[len(recs)-1]
	if last["outcome"] != "unauthenticated" || last["dropped_before"] != float64(flood-logged) {
		t.Errorf("next record = %v, want dropped_before=%d", last, flood-logged)
	}
}

// A user name from the request (a header resolver here) that could never
// be a name is not copied into the decision log or the audit record: 64
// KiB of it, a tab or a slash, become their length.
func TestDecisionLogHostileNames(t *testing.T) {
	buf := &syncBuffer{}
	h := newMetricsHost(t, storagetest.SQLite(t), func(cfg *Config) {
		logTo(buf)(cfg)
		cfg.DecisionLog = "denied"
		cfg.DecisionAudit = "denied"
	})
	long := strings.Repeat("x", 64<<10)
	for _, user := range []string{long, "a\tb", "a/b"} {
		if code, _ := h.get(t, "/notes/1", "X-User", user); code != http.StatusForbidden {
			t.Fatalf("user %.20q: status %d, want 403", user, code)
		}
	}
	recs := decisionRecords(t, buf)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	for i, want := range []string{"(not a valid name: 65536 bytes)", "(not a valid name: 3 bytes)", "(not a valid name: 3 bytes)"} {
		if recs[i]["user"] != want {
			t.Errorf("record %d user = %.60q, want %q", i, recs[i]["user"], want)
		}
	}
	if len(buf.String()) > 16<<10 {
		t.Errorf("the log holds %d bytes after three refusals", len(buf.String()))
	}
	var longest int
	if err := h.az.db.NewRaw("SELECT COALESCE(MAX(LENGTH(resource)), 0) FROM rolegate_audit").Scan(context.Background(), &longest); err != nil {
		t.Fatal(err)
	}
	if longest > 200 {
		t.Errorf("an audit resource of %d characters", longest)
	}
}

// With encryption on, the decision log and the denial audit name users,
// permissions and scopes by their stored (encrypted) form: the plaintext
// of a denied user, the permission and the scope appear nowhere.
func TestDecisionLogEncrypted(t *testing.T) {
	buf := &syncBuffer{}
	h := newMetricsHost(t, storagetest.SQLite(t), func(cfg *Config) {
		logTo(buf)(cfg)
		encrypted(testPassphrase)(cfg)
		cfg.DecisionLog = "all"
		cfg.DecisionAudit = "denied"
	})
	const user = "wombat-user-7e21"
	if code, _ := h.get(t, "/notes/1", "X-User", user); code != http.StatusForbidden {
		t.Fatalf("status %d, want 403", code)
	}
	h.get(t, "/notes/1", "X-User", "sara")
	if recs := decisionRecords(t, buf); len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	var audit []string
	if err := h.az.db.NewRaw("SELECT resource FROM rolegate_audit").Scan(context.Background(), &audit); err != nil {
		t.Fatal(err)
	}
	text := buf.String() + strings.Join(audit, "\n")
	for _, plain := range []string{user, "sara", `"edit"`, "permissions:edit"} {
		if strings.Contains(text, plain) {
			t.Errorf("%q in plain text in the decision log or the audit:\n%s", plain, text)
		}
	}
}
