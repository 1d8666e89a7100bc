package authz

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestLoginThrottleIgnoresForwardedFor: the login throttle counts attempts
// per remote address as the audit sees it (AUTH_TRUSTED_PROXIES, none by
// default), not as Gin's ClientIP does. An engine made with gin.New()
// trusts X-Forwarded-For from every peer, so a client that put a new
// address in that header on every attempt was never throttled.
func TestLoginThrottleIgnoresForwardedFor(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		idp := loginxtest.NewProvider(t)
		az := openTarget(t, target, func(cfg *Config) {
			cfg.ClientKey = newKey()
			cfg.OAuthProviders = []loginx.ProviderConfig{idp.Config("acme")}
			cfg.Login = loginx.Start
			cfg.JWTSecretWrapKey = "wrap-key-for-tests-0123456789abcdef"
			cfg.LoginAttemptsPerMinute = 3
		})
		r := gin.New() // Gin's default: every peer is a trusted proxy
		if err := az.Mount(r); err != nil {
			t.Fatal(err)
		}
		codes := []int{}
		for i := range 6 {
			w := performRequest(r, http.MethodPost, "/api/v1/login", "", strings.NewReader(`{"serviceName":"acme","accessToken":"x","idToken":"y"}`),
				"Content-Type", "application/json", "X-Forwarded-For", "203.0.113."+string(rune('1'+i)))
			codes = append(codes, w.Code)
		}
		if codes[len(codes)-1] != http.StatusTooManyRequests {
			t.Errorf("6 login attempts from one peer, each with a new X-Forwarded-For, answered %v; want 429 past 3", codes)
		}
		// The 429 is in the contract a client generates its code from,
		// with its Retry-After.
		var doc struct {
			Paths map[string]map[string]struct {
				Responses map[string]struct {
					Headers map[string]any `json:"headers"`
				} `json:"responses"`
			} `json:"paths"`
		}
		w := performRequest(r, http.MethodGet, "/openapi.json", "", nil)
		if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil {
			t.Fatalf("GET /openapi.json: %d %v", w.Code, err)
		}
		if tooMany, ok := doc.Paths["/api/v1/login"]["post"].Responses["429"]; !ok || tooMany.Headers["Retry-After"] == nil {
			t.Errorf("openapi.json: POST /api/v1/login documents no 429 with Retry-After")
		}
	})
}
