package loginxtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/rolegate/rolegate/loginx"
)

// DefaultClientID is the audience the provider's ID tokens carry unless an
// option says otherwise.
const DefaultClientID = "rolegate-test"

// Provider is a running test OIDC provider.
type Provider struct {
	srv    *httptest.Server
	rsaKey *rsa.PrivateKey
	ecKey  *ecdsa.PrivateKey
	down   atomic.Bool

	mu     sync.Mutex
	access map[string]User // access token -> user
	calls  atomic.Int64
	jwksN  atomic.Int64

	otherOnce sync.Once
	other     *rsa.PrivateKey // signs UnknownKey tokens
}

// User is a person at the provider: the claims it asserts.
type User struct {
	Subject           string `json:"sub"`
	PreferredUsername string `json:"preferred_username,omitempty"`
	Name              string `json:"name,omitempty"`
	Email             string `json:"email,omitempty"`
	EmailVerified     bool   `json:"email_verified,omitempty"`
	Picture           string `json:"picture,omitempty"`
	Zoneinfo          string `json:"zoneinfo,omitempty"`
}

// Key ids in the provider's JWKS.
const (
	RSAKeyID = "rsa-1"
	ECKeyID  = "ec-1"
)

// NewProvider starts a provider on loopback; it stops at the end of the
// test.
func NewProvider(t testing.TB) *Provider {
	t.Helper()
	p := &Provider{access: map[string]User{}, rsaKey: testRSAKey(t)}
	var err error
	if p.ecKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", p.discovery)
	mux.HandleFunc("/jwks", p.jwks)
	mux.HandleFunc("/userinfo", p.userinfo)
	p.srv = httptest.NewServer(p.gate(mux))
	t.Cleanup(p.Close)
	return p
}

// testRSAKey generates a fresh 2048-bit key per provider.
func testRSAKey(t testing.TB) *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Issuer is the provider's issuer URL.
func (p *Provider) Issuer() string { return p.srv.URL }

// Config returns a loginx provider configuration for this provider under
// the service name name, accepting DefaultClientID.
func (p *Provider) Config(name string) loginx.ProviderConfig {
	return loginx.ProviderConfig{Name: name, Issuer: p.Issuer(), ClientIDs: []string{DefaultClientID}}
}

// Close stops the server for good.
func (p *Provider) Close() { p.srv.Close() }

// SetDown makes every endpoint drop its connections (true) or serve again
// (false), to simulate an outage that ends.
func (p *Provider) SetDown(down bool) { p.down.Store(down) }

// UserInfoCalls counts requests to the userinfo endpoint.
func (p *Provider) UserInfoCalls() int64 { return p.calls.Load() }

// KeySetCalls counts requests to the JWKS endpoint.
func (p *Provider) KeySetCalls() int64 { return p.jwksN.Load() }

func (p *Provider) gate(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.down.Load() {
			if hj, ok := w.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					conn.Close()
					return
				}
			}
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (p *Provider) discovery(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, map[string]any{
		"issuer":                                p.Issuer(),
		"authorization_endpoint":                p.Issuer() + "/authorize",
		"token_endpoint":                        p.Issuer() + "/token",
		"jwks_uri":                              p.Issuer() + "/jwks",
		"userinfo_endpoint":                     p.Issuer() + "/userinfo",
		"id_token_signing_alg_values_supported": []string{"RS256", "ES256"},
		"subject_types_supported":               []string{"public"},
		"response_types_supported":              []string{"code"},
	})
}

func (p *Provider) jwks(w http.ResponseWriter, _ *http.Request) {
	p.jwksN.Add(1)
	writeJSON(w, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
		{Key: &p.rsaKey.PublicKey, KeyID: RSAKeyID, Algorithm: "RS256", Use: "sig"},
		{Key: &p.ecKey.PublicKey, KeyID: ECKeyID, Algorithm: "ES256", Use: "sig"},
	}})
}

func (p *Provider) userinfo(w http.ResponseWriter, r *http.Request) {
	p.calls.Add(1)
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	p.mu.Lock()
	u, known := p.access[tok]
	p.mu.Unlock()
	if !ok || !known {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		http.Error(w, `{"error":"invalid_token"}`, http.StatusUnauthorized)
		return
	}
	writeJSON(w, u)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// AccessToken issues an opaque access token that userinfo accepts for u.
func (p *Provider) AccessToken(u User) string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	tok := "at-" + base64.RawURLEncoding.EncodeToString(b)
	p.mu.Lock()
	p.access[tok] = u
	p.mu.Unlock()
	return tok
}

// Login issues an access token for u and an ID token bound to it (its
// at_hash), shaped by opts.
func (p *Provider) Login(u User, opts ...Option) (idToken, accessToken string) {
	accessToken = p.AccessToken(u)
	return p.IDToken(u, accessToken, opts...), accessToken
}
