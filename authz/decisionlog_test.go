package authz

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// decisions are the "guard decision" records logged so far.
func decisionRecords(t *testing.T, s *syncBuffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if rec["msg"] == "guard decision" {
			out = append(out, rec)
		}
	}
	return out
}

func logTo(buf *syncBuffer) func(*Config) {
	return func(cfg *Config) {
		cfg.Logger = slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
}

// AUTH_DECISION_LOG=all logs allowed decisions with the granting path and
// refusals with what was missing, with the caller's request id; "denied"
// leaves the allowed ones out; a sample rate near 0 logs (almost) none.
func TestDecisionLog(t *testing.T) {
	target := storagetest.SQLite(t)
	buf := &syncBuffer{}
	h := newMetricsHost(t, target, func(cfg *Config) { logTo(buf)(cfg); cfg.DecisionLog = "all" })
	ctx := context.Background()

	h.get(t, "/notes/1", "X-User", "sara", "X-Request-ID", "corr-1")
	h.get(t, "/notes/1", "X-User", "jack")
	h.get(t, "/notes/1")
	recs := decisionRecords(t, buf)
	if len(recs) != 3 {
		t.Fatalf("%d decision records, want 3: %v", len(recs), recs)
	}
	allowed, denied, anon := recs[0], recs[1], recs[2]
	granted, _ := allowed["granted"].(map[string]any)
	if allowed["outcome"] != "allowed" || allowed["user"] != "sara" || allowed["permissions"] != "edit" ||
		allowed["route"] != "/notes/:id" || allowed["client_request_id"] != "corr-1" ||
		granted["membership"] != "editor" || granted["granted_by"] != "editor" || granted["chain"] != "editor" {
		t.Errorf("allowed record = %v", allowed)
	}
	if denied["outcome"] != "denied" || denied["user"] != "jack" || denied["granted"] != nil {
		t.Errorf("denied record = %v", denied)
	}
	if anon["outcome"] != "unauthenticated" || anon["user"] != nil {
		t.Errorf("unauthenticated record = %v", anon)
	}

	buf2 := &syncBuffer{}
	h2 := newMetricsHost(t, storagetest.SQLite(t), func(cfg *Config) { logTo(buf2)(cfg); cfg.DecisionLog = "denied" })
	host2 := mustHost(t, h2.az)
	wrote(t)(host2.AddRole(ctx, "base", ""))
	wrote(t)(host2.AddPermission(ctx, "base", "edit"))
	wrote(t)(host2.AddMembership(ctx, "omar", "base"))
	h2.get(t, "/notes/1", "X-User", "sara")
	h2.get(t, "/notes/1", "X-User", "jack")
	if recs := decisionRecords(t, buf2); len(recs) != 1 || recs[0]["outcome"] != "denied" {
		t.Errorf("denied mode logged %v, want the one refusal", recs)
	}

	buf3 := &syncBuffer{}
	h3 := newMetricsHost(t, storagetest.SQLite(t), func(cfg *Config) {
		logTo(buf3)(cfg)
		cfg.DecisionLog = "denied"
		cfg.DecisionLogSample = 1e-9
	})
	for range 20 {
		h3.get(t, "/notes/1", "X-User", "jack")
	}
	if recs := decisionRecords(t, buf3); len(recs) != 0 {
		t.Errorf("a sample rate of 1e-9 logged %d records", len(recs))
	}
}

// The granting path names the chain of inheritance.
func TestDecisionLogInheritedPath(t *testing.T) {
	buf := &syncBuffer{}
	h := newMetricsHost(t, storagetest.SQLite(t), func(cfg *Config) { logTo(buf)(cfg); cfg.DecisionLog = "all" })
	ctx := context.Background()
	host := mustHost(t, h.az)
	wrote(t)(host.AddRole(ctx, "author", ""))
	wrote(t)(host.AddInheritance(ctx, "author", "editor"))
	wrote(t)(host.AddMembership(ctx, "ann", "author"))
	h.get(t, "/notes/1", "X-User", "ann")
	recs := decisionRecords(t, buf)
	if len(recs) != 1 {
		t.Fatalf("records %v", recs)
	}
	g, _ := recs[0]["granted"].(map[string]any)
	if g["membership"] != "author" || g["chain"] != "author>editor" || g["granted_by"] != "editor" {
		t.Errorf("granted = %v, want author>editor", g)
	}
}

// AUTH_DECISION_AUDIT=denied records guard 403s in the audit log, no more
// than the refusal budget lets through, and counts the rest as dropped.
func TestDecisionAuditBounded(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		h := newMetricsHost(t, target, func(cfg *Config) {
			cfg.DecisionAudit = "denied"
			cfg.AuditRefusalsPerSecond = 1
		})
		host := mustHost(t, h.az)
		dropped := gathered(t, h.reg, "rolegate_audit_refusals_dropped_total")
		start := time.Now()
		for range 10 {
			if code, _ := h.get(t, "/notes/1", "X-User", "jack"); code != http.StatusForbidden {
				t.Fatalf("status %d", code)
			}
		}
		var guard int
		if err := h.az.db.NewRaw("SELECT count(*) FROM rolegate_audit WHERE client = ? AND action = ?",
			host.fingerprint, "guard /notes/:id").Scan(context.Background(), &guard); err != nil {
			t.Fatal(err)
		}
		// A burst of 2, and one more token per second the requests took.
		if most := 2 + int(time.Since(start).Seconds()) + 1; guard < 2 || guard > most {
			t.Errorf("%d guard refusals recorded, want 2 to %d of 10", guard, most)
		}
		if got := gathered(t, h.reg, "rolegate_audit_refusals_dropped_total") - dropped; got != float64(10-guard) {
			t.Errorf("dropped moved by %v, want %d", got, 10-guard)
		}
		var rec struct{ Resource, Outcome string }
		if err := h.az.db.NewRaw("SELECT resource, outcome FROM rolegate_audit WHERE action = ? LIMIT 1", "guard /notes/:id").
			Scan(context.Background(), &rec.Resource, &rec.Outcome); err != nil {
			t.Fatal(err)
		}
		if rec.Resource != "user:jack permissions:edit" || rec.Outcome != "refused: insufficient permissions" {
			t.Errorf("record = %+v", rec)
		}
		// The host's client finds them in its audit log by their action.
		code, body := h.get(t, "/api/audit?limit=1000&action="+url.QueryEscape("guard /notes/:id"), "Authorization", "Bearer "+h.key)
		if code != http.StatusOK || strings.Count(body, `"guard /notes/:id"`) != guard {
			t.Errorf("GET /api/audit?action=guard /notes/:id: %d, want %d records: %s", code, guard, body)
		}
	})
}

// Login outcomes are counted by configured provider and result; a
// serviceName nobody configured is "unknown", not a label of its own.
func TestMetricsLogin(t *testing.T) {
	idp := loginxtest.NewProvider(t)
	h := newMetricsHost(t, storagetest.SQLite(t), func(cfg *Config) {
		cfg.OAuthProviders = []loginx.ProviderConfig{idp.Config("acme")}
		cfg.Login = loginx.Start
		cfg.JWTSecretWrapKey = "wrap-key-for-tests-0123456789abcdef"
	})
	post := func(body map[string]any) int {
		b, _ := json.Marshal(body)
		resp, err := h.srv.Client().Post(h.srv.URL+"/api/v1/login", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	idToken, accessToken := idp.Login(loginxtest.User{Subject: "s-1", Email: "sara@example.com", EmailVerified: true})
	if code := post(map[string]any{"serviceName": "acme", "accessToken": accessToken, "idToken": idToken, "expiresIn": 3600}); code != http.StatusOK {
		t.Fatalf("login: %d", code)
	}
	post(map[string]any{"serviceName": "acme", "accessToken": accessToken, "idToken": "x.y.z", "expiresIn": 3600})
	post(map[string]any{"serviceName": "evil-123", "accessToken": "a", "idToken": "b", "expiresIn": 3600})
	if got := gathered(t, h.reg, "rolegate_logins_total", "provider", "acme", "result", "success"); got != 1 {
		t.Errorf("acme success = %v, want 1", got)
	}
	if got := gathered(t, h.reg, "rolegate_logins_total", "provider", "unknown", "result", "unknown-service"); got != 1 {
		t.Errorf("unknown unknown-service = %v, want 1", got)
	}
	if n := series(t, h.reg, "rolegate_logins_total"); n != 3 {
		t.Errorf("%d login series, want 3 (success, the bad token's code, unknown-service)", n)
	}
}
