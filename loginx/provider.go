package loginx

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

// allowedAlgs are the only signature algorithms accepted on ID tokens.
var allowedAlgs = []string{
	oidc.RS256, oidc.RS384, oidc.RS512,
	oidc.ES256, oidc.ES384, oidc.ES512,
	oidc.PS256, oidc.PS384, oidc.PS512,
	oidc.EdDSA,
}

// retryDiscoveryAfter spaces out discovery attempts against a provider
// that is down, so a burst of logins does not become a burst of requests.
const retryDiscoveryAfter = 500 * time.Millisecond

// provider is one configured provider. Discovery runs at startup and, if
// it failed, again on a later login, so a provider that was down at boot
// works once it is back.
type provider struct {
	cfg      ProviderConfig
	client   *http.Client
	leeway   time.Duration
	keyEvery time.Duration
	now      func() time.Time
	clients  map[string]bool

	mu      sync.Mutex
	ready   *oidcState
	lastErr error
	lastTry time.Time
}

// oidcState is what discovery yields.
type oidcState struct {
	verifier    *oidc.IDTokenVerifier
	userInfoURL string
}

func newProvider(cfg ProviderConfig, client *http.Client, sc Config) *provider {
	p := &provider{cfg: cfg, client: client, leeway: sc.Leeway, keyEvery: sc.KeySetRefreshInterval, now: sc.Now, clients: map[string]bool{}}
	for _, id := range cfg.ClientIDs {
		p.clients[id] = true
	}
	return p
}

// state returns the discovered provider, discovering it now if needed.
func (p *provider) state(ctx context.Context) (*oidcState, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ready != nil {
		return p.ready, nil
	}
	if p.lastErr != nil && time.Since(p.lastTry) < retryDiscoveryAfter {
		return nil, p.lastErr
	}
	p.lastTry = time.Now()
	st, err := p.discoverNow(ctx)
	if err != nil {
		p.lastErr = fmt.Errorf("%w: discovery of %q: %w", ErrProviderUnavailable, p.cfg.Name, err)
		return nil, p.lastErr
	}
	p.ready, p.lastErr = st, nil
	return st, nil
}

func (p *provider) discoverNow(ctx context.Context) (*oidcState, error) {
	pc := oidc.ProviderConfig{IssuerURL: p.cfg.Issuer, JWKSURL: p.cfg.JWKSURL, UserInfoURL: p.cfg.UserInfoURL}
	if pc.JWKSURL == "" || pc.UserInfoURL == "" {
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		d, err := oidc.NewProvider(oidc.ClientContext(dctx, p.client), p.cfg.Issuer)
		if err != nil {
			return nil, err
		}
		var meta struct {
			JWKSURL     string `json:"jwks_uri"`
			UserInfoURL string `json:"userinfo_endpoint"`
		}
		if err := d.Claims(&meta); err != nil {
			return nil, err
		}
		if pc.JWKSURL == "" {
			pc.JWKSURL = meta.JWKSURL
		}
		if pc.UserInfoURL == "" {
			pc.UserInfoURL = meta.UserInfoURL
		}
	}
	if pc.JWKSURL == "" || pc.UserInfoURL == "" {
		return nil, fmt.Errorf("discovery gave no jwks_uri or no userinfo_endpoint")
	}
	keys := newKeySet(pc.JWKSURL, p.client, p.keyEvery, p.now)
	v := oidc.NewVerifier(p.cfg.Issuer, keys, &oidc.Config{
		// Audience is checked against every configured client id below.
		SkipClientIDCheck:    true,
		SupportedSigningAlgs: allowedAlgs,
		Now:                  func() time.Time { return p.now().Add(-p.leeway) },
	})
	return &oidcState{verifier: v, userInfoURL: pc.UserInfoURL}, nil
}
