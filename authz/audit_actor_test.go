package authz

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"github.com/rolegate/rolegate/storage/storagetest"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// auditPage is GET /api/audit with query q under key, decoded.
func auditPage(t *testing.T, e http.Handler, key, q string) []AuditRecord {
	t.Helper()
	w := performRequest(e, http.MethodGet, "/api/audit?"+q, key, nil)
	if w.Code != http.StatusOK {
		t.Fatalf("GET /api/audit?%s: %d %s", q, w.Code, w.Body)
	}
	var body struct{ Data []AuditRecord }
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	return body.Data
}

// Every record names its actor: a key's writes its short digest (never
// the key), a Go call "library", WithActor's person "user:<name>"; the
// X-Change-Reason of a write is its reason; ?actor= picks one actor's.
// A malformed reason or actor is 400 and writes nothing. The key appears
// in no record, no log line and no response. On both stores, names plain
// and encrypted (a person's name then in its stored form, found by
// ?actor=user:<plain name> all the same).
func TestAuditActorAndReason(t *testing.T) {
	for _, m := range encryptModes {
		t.Run(m.name, func(t *testing.T) {
			storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
				testAuditActorAndReason(t, target, m.mod)
			})
		})
	}
}

func testAuditActorAndReason(t *testing.T, target storagetest.Target, mod func(*Config)) {
	key := newKey()
	az, logs := openREST(t, target, func(c *Config) {
		c.ClientKey = key
		if mod != nil {
			mod(c)
		}
	})
	e := newTestRouter(t, az, "")
	ctx := context.Background()
	c := mustClient(t, az, key)
	ok := mustOK(t)
	ok(c.AddRole(ctx, "lib-role", ""))
	ok(c.AddRole(WithActor(ctx, "alice"), "alice-role", ""))
	if _, err := c.AddRole(WithActor(ctx, "bad/name"), "x", ""); !errors.Is(err, ErrInvalidName) {
		t.Fatalf("WithActor with a bad name: %v, want ErrInvalidName", err)
	}
	var responses strings.Builder
	w := performRequest(e, http.MethodPost, "/api/role/key-role", key, nil, "X-Change-Reason", "ticket OPS-7: new team")
	if w.Code != http.StatusCreated {
		t.Fatalf("POST with a reason: %d %s", w.Code, w.Body)
	}
	responses.WriteString(w.Body.String())
	for _, bad := range []string{"tab\there", strings.Repeat("x", 257), "zero\u200bwidth", "\u0085next"} {
		w := performRequest(e, http.MethodPost, "/api/role/refused", key, nil, "X-Change-Reason", bad)
		checkEnvelope(t, w, http.StatusBadRequest)
		responses.WriteString(w.Body.String())
	}
	if has, _ := c.GetRole(ctx, "refused"); has.Role != "" {
		t.Fatal("a write with a malformed reason was stored")
	}
	sum := sha256.Sum256([]byte(key))
	keyActor := "key:" + hex.EncodeToString(sum[:])[:8]
	all := auditPage(t, e, key, "limit=100")
	byResource := map[string]AuditRecord{}
	for _, r := range all {
		if r.Actor == "" {
			t.Errorf("record %+v has no actor", r)
		}
		if r.Outcome == "created" {
			byResource[r.Resource] = r
		}
	}
	if r := byResource["role:lib-role"]; r.Actor != "library" || r.Reason != "" {
		t.Errorf("library write: %+v", r)
	}
	alice := "user:" + c.scope.AuditUser("alice")
	if r := byResource["role:alice-role"]; r.Actor != alice {
		t.Errorf("WithActor write: actor %q, want %q", r.Actor, alice)
	}
	if r := byResource["role:key-role"]; r.Actor != keyActor || r.Reason != "ticket OPS-7: new team" {
		t.Errorf("key write: actor %q reason %q, want %q and the reason", r.Actor, r.Reason, keyActor)
	}
	for _, q := range []struct{ actor, resource string }{{"user:alice", "role:alice-role"}, {keyActor, "role:key-role"}, {"library", "role:lib-role"}} {
		for _, r := range auditPage(t, e, key, "actor="+url.QueryEscape(q.actor)) {
			if r.Resource != q.resource && r.Outcome == "created" {
				t.Errorf("?actor=%s gave %+v", q.actor, r)
			}
		}
		if got := auditPage(t, e, key, "actor="+url.QueryEscape(q.actor)+"&action=add_role"); len(got) == 0 {
			t.Errorf("?actor=%s found nothing", q.actor)
		}
	}
	for _, bad := range []string{"key:XYZ", "user:a/b", "someone", "key:" + key} {
		w := performRequest(e, http.MethodGet, "/api/audit?actor="+url.QueryEscape(bad), key, nil)
		checkEnvelope(t, w, http.StatusBadRequest)
		responses.WriteString(w.Body.String())
	}
	// The key itself: in no stored record, no log line, no response.
	var dump []string
	if err := az.db.NewRaw(`SELECT client || ' ' || action || ' ' || resource || ' ' || outcome || ' ' || request_id || ' ' ||
		client_request_id || ' ' || remote_addr || ' ' || actor || ' ' || reason FROM rolegate_audit`).Scan(ctx, &dump); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(all)
	responses.Write(raw)
	for what, text := range map[string]string{"records": strings.Join(dump, "\n"), "logs": logs.String(), "responses": responses.String()} {
		if strings.Contains(strings.ToLower(text), key) {
			t.Errorf("the client key appears in the %s", what)
		}
	}
}
