package authz

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/console"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestConsoleMount: where Mount serves the console, and when.
func TestConsoleMount(t *testing.T) {
	admin := newKey()
	for _, tc := range []struct {
		name   string
		mode   ConsoleMode
		keys   bool
		served bool
	}{
		{"auto with admin keys", ConsoleAuto, true, true},
		{"auto in open mode", ConsoleAuto, false, false},
		{"off with admin keys", ConsoleOff, true, false},
		{"on in open mode", ConsoleOn, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			az, logs := openREST(t, storagetest.SQLite(t), func(c *Config) {
				c.Console = tc.mode
				if tc.keys {
					c.ClientKey = admin
				}
			})
			if az.ConsoleEnabled() != tc.served {
				t.Errorf("ConsoleEnabled() = %v, want %v", az.ConsoleEnabled(), tc.served)
			}
			e := newTestRouter(t, az, "/auth")
			w := performRequest(e, http.MethodGet, "/auth/console/", "", nil)
			if !tc.served {
				if w.Code != http.StatusNotFound {
					t.Errorf("GET /auth/console/: %d, want 404", w.Code)
				}
				return
			}
			if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "rolegate console") {
				t.Fatalf("GET /auth/console/: %d %s", w.Code, w.Body.String())
			}
			if got := w.Header().Get("Content-Security-Policy"); got != console.ContentSecurityPolicy {
				t.Errorf("CSP %q", got)
			}
			if !strings.Contains(logs.String(), "path=/auth/console/") {
				t.Errorf("Mount did not log where the console is: %s", logs)
			}
			w = performRequest(e, http.MethodGet, "/auth/console", "", nil)
			if w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != "/auth/console/" {
				t.Errorf("GET /auth/console: %d to %q", w.Code, w.Header().Get("Location"))
			}
			for _, p := range []string{"/auth/console/../console/index.html", "/auth/console/%2e%2e/openapi.json",
				"/auth/console/nope"} {
				if w := performRequest(e, http.MethodGet, p, "", nil); w.Code == http.StatusOK {
					t.Errorf("GET %s: %d", p, w.Code)
				}
			}
			// The REST API stays as it was beside it.
			if w := performRequest(e, http.MethodGet, "/auth/api/roles", admin, nil); w.Code != http.StatusOK {
				t.Errorf("GET /auth/api/roles: %d", w.Code)
			}
		})
	}
}

func TestConsoleSetting(t *testing.T) {
	for v, want := range map[string]ConsoleMode{"": ConsoleAuto, "true": ConsoleOn, "1": ConsoleOn, "false": ConsoleOff, "0": ConsoleOff} {
		cfg, err := ConfigFromLookup(func(k string) string {
			if k == "AUTH_ENABLE_CONSOLE" {
				return v
			}
			return ""
		})
		if err != nil || cfg.Console != want {
			t.Errorf("AUTH_ENABLE_CONSOLE=%q: %v, %v; want %v", v, cfg.Console, err, want)
		}
	}
	if _, err := ConfigFromLookup(func(k string) string {
		if k == "AUTH_ENABLE_CONSOLE" {
			return "maybe"
		}
		return ""
	}); err == nil || !strings.Contains(err.Error(), "AUTH_ENABLE_CONSOLE") {
		t.Errorf("AUTH_ENABLE_CONSOLE=maybe: %v", err)
	}
	if !knownVariable("AUTH_ENABLE_CONSOLE") {
		t.Error("AUTH_ENABLE_CONSOLE is not a known variable")
	}
}

// TestAuditActionFilter: GET /api/audit?action= on both stores.
func TestAuditActionFilter(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, _ storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		key := newKey()
		for _, p := range []string{"/api/role/a", "/api/role/b", "/api/permission/a/x"} {
			if w := performRequest(e, http.MethodPost, p, key, nil); w.Code != http.StatusCreated {
				t.Fatalf("POST %s: %d", p, w.Code)
			}
		}
		performRequest(e, http.MethodDelete, "/api/role/b", key, nil)
		body := checkEnvelope(t, performRequest(e, http.MethodGet, "/api/audit?action=add_role", key, nil), http.StatusOK)
		recs := body["data"].([]any)
		if len(recs) != 2 {
			t.Fatalf("add_role records: %v", recs)
		}
		for i, want := range []string{"role:b", "role:a"} { // newest first
			r := recs[i].(map[string]any)
			if r["action"] != "add_role" || r["resource"] != want {
				t.Errorf("record %d: %v", i, r)
			}
		}
		body = checkEnvelope(t, performRequest(e, http.MethodGet, "/api/audit?action=add_role&limit=1&before="+
			recs[0].(map[string]any)["id"].(json.Number).String(), key, nil), http.StatusOK)
		if d := body["data"].([]any); len(d) != 1 || d[0].(map[string]any)["resource"] != "role:a" {
			t.Errorf("second page: %v", d)
		}
		for _, q := range []string{"", "action="} {
			body = checkEnvelope(t, performRequest(e, http.MethodGet, "/api/audit?"+q, key, nil), http.StatusOK)
			if d := body["data"].([]any); len(d) != 4 {
				t.Errorf("?%s: %d records, want all 4", q, len(d))
			}
		}
		body = checkEnvelope(t, performRequest(e, http.MethodGet, "/api/audit?action=no_such", key, nil), http.StatusOK)
		if d := body["data"].([]any); len(d) != 0 {
			t.Errorf("unknown action: %v", d)
		}
		for _, q := range []string{"action=ADD_ROLE", "action=add_role&action=del_role", "action=" + strings.Repeat("a", 65), "action=a%20b", "action=guard%20notes", "action=guard%20/a%0Ab"} {
			checkEnvelope(t, performRequest(e, http.MethodGet, "/api/audit?"+q, key, nil), http.StatusBadRequest)
		}
	})
}
