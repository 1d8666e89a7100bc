package loginx_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// clock is a test clock that starts at the real time and moves on request.
type clock struct {
	mu  sync.Mutex
	off time.Duration
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.off)
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.off += d
	c.mu.Unlock()
}

// Forged ID tokens never make rolegate fetch the provider's key set per
// request: a known kid with a bad signature fetches nothing, an unknown
// kid fetches at most once per interval.
func TestKeySetFetchedOnlyForUnknownKidOncePerInterval(t *testing.T) {
	db := storagetest.OpenTarget(t, storagetest.SQLite(t))
	clk := &clock{}
	e := newEnv(t, db, func(cfg *loginx.Config) {
		cfg.Now = clk.now
		cfg.KeySetRefreshInterval = 10 * time.Minute
	})
	e.mustLogin(alice)
	if n := e.idp.KeySetCalls(); n != 1 {
		t.Fatalf("%d key set fetches after the first login, want 1", n)
	}
	// A known kid with a signature that does not match (the payload was
	// changed after signing), and a kid the provider never had.
	for i := 0; i < 20; i++ {
		for _, opt := range []loginxtest.Option{loginxtest.Tampered(), loginxtest.UnknownKey()} {
			code, body := e.login(alice, opt)
			wantError(t, code, body, http.StatusUnauthorized, "invalid-token")
		}
	}
	if n := e.idp.KeySetCalls(); n != 1 {
		t.Fatalf("%d key set fetches after 40 forged tokens within the interval, want 1", n)
	}
	clk.advance(11 * time.Minute)
	// A concurrent burst after the interval: one fetch between them.
	codes := make(chan int, 40)
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		for _, opt := range []loginxtest.Option{loginxtest.UnknownKey(), loginxtest.Tampered()} {
			id, at := e.idp.Login(alice, opt)
			wg.Add(1)
			go func() {
				defer wg.Done()
				code, _ := e.do("POST", "/api/v1/login", loginBody(service, at, id, 3600))
				codes <- code
			}()
		}
	}
	wg.Wait()
	close(codes)
	for code := range codes {
		if code != http.StatusUnauthorized {
			t.Fatalf("a forged token got %d", code)
		}
	}
	if n := e.idp.KeySetCalls(); n != 2 {
		t.Fatalf("%d key set fetches after the interval, want 2", n)
	}
	e.mustLogin(alice) // the genuine key still works
	if n := e.idp.KeySetCalls(); n != 2 {
		t.Fatalf("%d key set fetches, want 2", n)
	}
}

// Login attempts from one address are throttled with a 429 in the login
// error shape; another address is not affected.
func TestLoginAttemptsThrottledPerAddress(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		clk := &clock{}
		e := newEnv(t, db, func(cfg *loginx.Config) {
			cfg.Now = clk.now
			cfg.LoginAttemptsPerMinute = 5
		})
		from := func(addr string, body string) (*httptest.ResponseRecorder, map[string]any) {
			req := httptest.NewRequest("POST", "/api/v1/login", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.RemoteAddr = addr + ":40000"
			w := httptest.NewRecorder()
			e.r.ServeHTTP(w, req)
			var out map[string]any
			_ = jsonUnmarshal(w.Body.Bytes(), &out)
			return w, out
		}
		id, at := e.idp.Login(alice)
		good := loginBody(service, at, id, 3600)
		for i := 0; i < 5; i++ {
			code := http.StatusUnauthorized
			body := loginBody(service, at, id+"x", 3600) // wrong attempts count too
			if i == 4 {
				code, body = http.StatusOK, good
			}
			if w, out := from("203.0.113.7", body); w.Code != code {
				t.Fatalf("attempt %d: %d %v", i+1, w.Code, out)
			}
		}
		w, out := from("203.0.113.7", good)
		wantError(t, w.Code, out, http.StatusTooManyRequests, "too-many-requests")
		if w.Header().Get("Retry-After") == "" {
			t.Fatal("no Retry-After")
		}
		if w, out := from("198.51.100.9", good); w.Code != http.StatusOK {
			t.Fatalf("another address: %d %v", w.Code, out)
		}
		clk.advance(13 * time.Second) // one attempt refilled (5 a minute)
		if w, out := from("203.0.113.7", good); w.Code != http.StatusOK {
			t.Fatalf("after the refill: %d %v", w.Code, out)
		}
		if w, _ := from("203.0.113.7", good); w.Code != http.StatusTooManyRequests {
			t.Fatalf("second attempt after one refill: %d", w.Code)
		}
	})
}

// me.avatarUrl is an http(s) URL or empty, whatever the picture claim.
func TestAvatarURLOnlyHTTP(t *testing.T) {
	db := storagetest.OpenTarget(t, storagetest.SQLite(t))
	e := newEnv(t, db)
	for i, tc := range []struct{ picture, want string }{
		{"javascript:alert(document.cookie)", ""},
		{"JavaScript:alert(1)", ""},
		{"data:text/html,<script>alert(1)</script>", ""},
		{"//evil.example/x.png", ""},
		{"vbscript:msgbox(1)", ""},
		{"https:///no-host", ""},
		{"https://example.org/a.png", "https://example.org/a.png"},
		{"http://example.org/a.png", "http://example.org/a.png"},
	} {
		u := alice
		u.Subject, u.Picture = "sub-avatar-"+string(rune('a'+i)), tc.picture
		data := e.mustLogin(u)
		if got := data["me"].(map[string]any)["avatarUrl"]; got != tc.want {
			t.Errorf("picture %q: avatarUrl %q, want %q", tc.picture, got, tc.want)
		}
		code, body := e.do("GET", "/api/v1/me", "", bearer(data["authToken"].(string))...)
		if code != 200 || body["data"].(map[string]any)["avatarUrl"] != tc.want {
			t.Errorf("GET me for %q: %d %v", tc.picture, code, body)
		}
	}
}

// A 60 KB serviceName is refused and logged in a few hundred bytes.
func TestLoginLogsTruncatedFields(t *testing.T) {
	db := storagetest.OpenTarget(t, storagetest.SQLite(t))
	var buf bytes.Buffer
	var mu sync.Mutex
	e := newEnv(t, db, func(cfg *loginx.Config) {
		cfg.Logger = slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, nil))
	})
	id, at := e.idp.Login(alice)
	huge := strings.Repeat("S", 60<<10)
	code, body := e.do("POST", "/api/v1/login", loginBody(huge, at, id, 60))
	wantError(t, code, body, http.StatusBadRequest, "unknown-service")
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(buf.String(), "login refused") || buf.Len() > 1024 {
		t.Fatalf("log is %d bytes: %.300q", buf.Len(), buf.String())
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// An ID token for several audiences must name us in azp; nbf and iat may
// be ahead of our clock by the small leeway only.
func TestLoginAzpAndClockLeeway(t *testing.T) {
	db := storagetest.OpenTarget(t, storagetest.SQLite(t))
	e := newEnv(t, db)
	in := func(d time.Duration) int64 { return time.Now().Add(d).Unix() }
	refused := []struct {
		name string
		opts []loginxtest.Option
	}{
		{"another client first, no azp", []loginxtest.Option{loginxtest.Audience("other-client", loginxtest.DefaultClientID)}},
		{"several audiences, azp another client", []loginxtest.Option{loginxtest.Audience(loginxtest.DefaultClientID, "other-client"), loginxtest.Claim("azp", "other-client")}},
		{"nbf 4 minutes ahead", []loginxtest.Option{loginxtest.Claim("nbf", in(4*time.Minute))}},
		{"nbf 30 seconds ahead", []loginxtest.Option{loginxtest.Claim("nbf", in(30*time.Second))}},
		{"iat 4 minutes ahead", []loginxtest.Option{loginxtest.Claim("iat", in(4*time.Minute))}},
		{"expired 30 seconds ago", []loginxtest.Option{loginxtest.Claim("exp", in(-30*time.Second))}},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			code, body := e.login(alice, tc.opts...)
			wantError(t, code, body, http.StatusUnauthorized, "invalid-token")
		})
	}
	accepted := []struct {
		name string
		opts []loginxtest.Option
	}{
		{"several audiences, azp us", []loginxtest.Option{loginxtest.Audience("other-client", loginxtest.DefaultClientID), loginxtest.Claim("azp", loginxtest.DefaultClientID)}},
		{"nbf 2 seconds ahead", []loginxtest.Option{loginxtest.Claim("nbf", in(2*time.Second))}},
		{"iat 2 seconds ahead", []loginxtest.Option{loginxtest.Claim("iat", in(2*time.Second))}},
	}
	for _, tc := range accepted {
		t.Run(tc.name, func(t *testing.T) {
			if code, body := e.login(alice, tc.opts...); code != http.StatusOK {
				t.Fatalf("%d %v", code, body)
			}
		})
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// A key set that cannot be fetched is an outage (503), not a bad token.
func TestKeySetOutageIs503(t *testing.T) {
	db := storagetest.OpenTarget(t, storagetest.SQLite(t))
	e := newEnv(t, db, func(cfg *loginx.Config) {
		cfg.Providers[0].JWKSURL = cfg.Providers[0].Issuer + "/no-such-keys"
	})
	for i := 0; i < 3; i++ { // also right after a failed fetch, when none is tried
		code, body := e.login(alice)
		wantError(t, code, body, http.StatusServiceUnavailable, "provider-unavailable")
	}
}
