package samples_test

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/samples"
)

func TestPing(t *testing.T) {
	r := newTestRouter(t, testConfig())
	start := time.Now()
	w := performRequest(r, "/api/ping", map[string]string{"Authorization": basic(testUser, testPass)})
	after := time.Now()
	if w.Code != http.StatusOK {
		t.Fatalf("status = %d, want 200; body %s", w.Code, w.Body)
	}
	if got, want := w.Header().Get("Content-Type"), "text/plain; charset=utf-8"; got != want {
		t.Errorf("Content-Type = %q, want %q", got, want)
	}
	if got := w.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", got)
	}
	got, err := time.ParseInLocation(samples.PingLayout, w.Body.String(), time.Local)
	if err != nil {
		t.Fatalf("body %q does not parse with %q: %v", w.Body, samples.PingLayout, err)
	}
	// The body has whole seconds: it lies between start truncated to the
	// second and after, so it is less than a second behind the request.
	if got.Before(start.Truncate(time.Second)) || got.After(after) {
		t.Errorf("ping time %v not within a second of now (%v .. %v)", got, start, after)
	}
}

func TestPingUsesNowInLocalTime(t *testing.T) {
	cfg := testConfig()
	fixed := time.Date(2024, 3, 9, 7, 5, 3, 999, time.UTC)
	cfg.Now = func() time.Time { return fixed }
	r := newTestRouter(t, cfg)
	w := performRequest(r, "/api/ping", map[string]string{"Authorization": basic(testUser, testPass)})
	if want := fixed.Local().Format("02.01.2006, 15:04:05"); w.Body.String() != want {
		t.Errorf("body = %q, want %q", w.Body, want)
	}
}

func TestTest(t *testing.T) {
	tests := []struct {
		name     string
		cfgName  string
		cfgEmail string
		wantBody string
	}{
		{"defaults", "", "", `{"Name":"Sample User","Email":"sample@example.com"}`},
		{"configured", "Ada Lovelace", "ada@example.com", `{"Name":"Ada Lovelace","Email":"ada@example.com"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.Name, cfg.Email = tt.cfgName, tt.cfgEmail
			r := newTestRouter(t, cfg)
			w := performRequest(r, "/api/test", map[string]string{
				"Authorization": basic(testUser, testPass),
				"X-API-KEY":     testKey,
			})
			if w.Code != http.StatusOK {
				t.Fatalf("status = %d, want 200; body %s", w.Code, w.Body)
			}
			if got, want := w.Header().Get("Content-Type"), "application/json; charset=utf-8"; got != want {
				t.Errorf("Content-Type = %q, want %q", got, want)
			}
			if got := w.Header().Get("WWW-Authenticate"); got != "" {
				t.Errorf("WWW-Authenticate = %q on success", got)
			}
			if w.Body.String() != tt.wantBody {
				t.Errorf("body = %s, want %s", w.Body, tt.wantBody)
			}
		})
	}
}

func TestUnauthorized(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	good := basic(testUser, testPass)
	tests := []struct {
		name   string
		auth   string // Authorization header; "" means absent
		apiKey string // X-API-KEY header; "" means absent
	}{
		{"missing header", "", testKey},
		{"wrong password", basic(testUser, "wrong"), testKey},
		{"wrong username", basic("mallory", testPass), testKey},
		{"both wrong", basic("mallory", "wrong"), testKey},
		{"password prefix", basic(testUser, testPass[:len(testPass)-1]), testKey},
		{"password with suffix", basic(testUser, testPass+"x"), testKey},
		{"username and password swapped", basic(testPass, testUser), testKey},
		{"empty credentials", basic("", ""), testKey},
		{"not base64", "Basic !!!not-base64!!!", testKey},
		{"no colon", "Basic " + b64(testUser+testPass), testKey},
		{"empty payload", "Basic ", testKey},
		{"scheme alone", "Basic", testKey},
		{"other scheme", "Bearer " + b64(testUser+":"+testPass), testKey},
		{"raw credentials", "Basic " + testUser + ":" + testPass, testKey},
	}
	for _, tt := range tests {
		for _, path := range []string{"/api/ping", "/api/test"} {
			t.Run(tt.name+" "+path, func(t *testing.T) {
				r := newTestRouter(t, testConfig())
				h := map[string]string{"X-API-KEY": tt.apiKey}
				if tt.auth != "" {
					h["Authorization"] = tt.auth
				}
				assertUnauthorized(t, performRequest(r, path, h))
			})
		}
	}

	keyTests := []struct {
		name   string
		apiKey string
		absent bool
	}{
		{"missing X-API-KEY", "", true},
		{"empty X-API-KEY", "", false},
		{"wrong X-API-KEY", "wrong", false},
		{"X-API-KEY prefix", testKey[:len(testKey)-1], false},
		{"X-API-KEY is the password", testPass, false},
	}
	for _, tt := range keyTests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTestRouter(t, testConfig())
			req := map[string]string{"Authorization": good}
			if !tt.absent {
				req["X-API-KEY"] = tt.apiKey
			}
			w := performRequest(r, "/api/test", req)
			assertUnauthorized(t, w)
			if !strings.Contains(w.Body.String(), "X-API-KEY") {
				t.Errorf("detail should say X-API-KEY is required: %s", w.Body)
			}
		})
	}
}

func TestSchemeIsCaseInsensitive(t *testing.T) {
	r := newTestRouter(t, testConfig())
	auth := "basic " + strings.TrimPrefix(basic(testUser, testPass), "Basic ")
	if w := performRequest(r, "/api/ping", map[string]string{"Authorization": auth}); w.Code != http.StatusOK {
		t.Errorf("status = %d, want 200", w.Code)
	}
}

func TestRegisterIncompleteConfig(t *testing.T) {
	tests := []struct {
		name    string
		cfg     samples.Config
		missing []string
	}{
		{"empty", samples.Config{}, []string{"AUTH_SAMPLES_USERNAME", "AUTH_SAMPLES_PASSWORD", "AUTH_SAMPLES_API_KEY"}},
		{"no username", samples.Config{Password: "p", APIKey: "k"}, []string{"AUTH_SAMPLES_USERNAME"}},
		{"no password", samples.Config{Username: "u", APIKey: "k"}, []string{"AUTH_SAMPLES_PASSWORD"}},
		{"no API key", samples.Config{Username: "u", Password: "p", Name: "n"}, []string{"AUTH_SAMPLES_API_KEY"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cfg.Enabled() {
				t.Fatal("Enabled() = true")
			}
			r := gin.New()
			err := samples.Register(r, tt.cfg)
			if !errors.Is(err, samples.ErrNotEnabled) {
				t.Fatalf("Register error = %v, want ErrNotEnabled", err)
			}
			for _, m := range tt.missing {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not name %s", err, m)
				}
			}
			if n := len(r.Routes()); n != 0 {
				t.Errorf("%d routes mounted, want 0", n)
			}
		})
	}
}

func TestRegisterUnderGroup(t *testing.T) {
	r := gin.New()
	if err := samples.Register(r.Group("/prefix"), testConfig()); err != nil {
		t.Fatal(err)
	}
	auth := map[string]string{"Authorization": basic(testUser, testPass), "X-API-KEY": testKey}
	tests := []struct {
		path string
		want int
	}{
		{"/prefix/api/ping", http.StatusOK},
		{"/prefix/api/test", http.StatusOK},
		{"/api/ping", http.StatusNotFound},
		{"/api/test", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if w := performRequest(r, tt.path, auth); w.Code != tt.want {
				t.Errorf("status = %d, want %d", w.Code, tt.want)
			}
		})
	}
	assertUnauthorized(t, performRequest(r, "/prefix/api/ping", nil))
}
