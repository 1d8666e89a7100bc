package loginx

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx/internal/store"
	"github.com/rolegate/rolegate/loginx/loginapi"
)

// pruneEvery is how many polls pass between deletions of dead rows.
const pruneEvery = 600

// Service is the token-exchange login and its sessions. It is safe for
// concurrent use; Close stops its background work.
type Service struct {
	db        *bun.DB
	cfg       Config
	log       *slog.Logger
	providers map[string]*provider
	tokens    *tokens
	sessions  *sessions
	attempts  *throttle // login attempts per remote address

	stop      context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// New validates cfg, obtains the JWT secret (see Config.JWTSecret), loads
// the revoked sessions, and starts
// provider discovery and the revocation poll in the background. The
// store's migrations must have run. A provider that cannot be discovered
// now is retried on its first login.
func New(ctx context.Context, db *bun.DB, cfg Config) (*Service, error) {
	cfg, err := withDefaults(cfg)
	if err != nil {
		return nil, err
	}
	key, err := signingKey(ctx, db, cfg)
	if err != nil {
		return nil, err
	}
	s := &Service{db: db, cfg: cfg, log: cfg.Logger, providers: map[string]*provider{}, sessions: &sessions{db: db},
		attempts: newThrottle(cfg.LoginAttemptsPerMinute, cfg.Now)}
	s.tokens = newTokens(cfg.JWTAlgorithm, key, cfg, s.sessions)
	if err := s.sessions.poll(ctx, cfg.Now()); err != nil {
		return nil, fmt.Errorf("loginx: loading revocations: %w", err)
	}
	client := providerClient(cfg.HTTPClient)
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.stop = stop
	for _, pc := range cfg.Providers {
		p := newProvider(pc, client, cfg)
		s.providers[pc.Name] = p
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			if _, err := p.state(bg); err != nil {
				s.log.Warn("loginx: provider discovery failed; retrying on first login", "provider", pc.Name, "err", err)
			}
		}()
	}
	s.wg.Add(1)
	go s.pollLoop(bg)
	return s, nil
}

// Login is what a host's authz needs of a login service (see
// loginapi.Login). *Service implements it.
type Login = loginapi.Login

var _ Login = (*Service)(nil)

// Start is New behind the Login interface: the value of authz's
// Config.Login. A host that never sets it links none of the login (OIDC,
// JOSE, OAuth 2, PRECIS), because nothing else reaches New.
func Start(ctx context.Context, db *bun.DB, cfg Config) (Login, error) {
	s, err := New(ctx, db, cfg)
	if err != nil {
		return nil, err // not a nil *Service in a non-nil Login
	}
	return s, nil
}

// Close stops the background work. It does not close the database.
func (s *Service) Close() error {
	s.closeOnce.Do(func() {
		s.stop()
		s.wg.Wait()
	})
	return nil
}

// Register mounts POST /api/v1/login, POST /api/v1/token/refresh,
// POST /api/v1/logout and GET /api/v1/me on r (which may be a group).
func (s *Service) Register(r gin.IRouter) {
	r.POST("/api/v1/login", s.handleLogin)
	r.POST("/api/v1/token/refresh", s.handleRefresh)
	r.POST("/api/v1/logout", s.handleLogout)
	r.GET("/api/v1/me", s.handleMe)
}

// pollLoop reads other replicas' revocations every poll interval.
func (s *Service) pollLoop(ctx context.Context) {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.RevocationPollInterval)
	defer t.Stop()
	failing := false
	for n := 1; ; n++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		err := s.sessions.poll(ctx, s.cfg.Now())
		if err == nil && n%pruneEvery == 0 {
			err = store.Prune(ctx, s.db, s.cfg.Now().UnixMilli())
		}
		if ctx.Err() != nil {
			return
		}
		if err != nil && !failing {
			s.log.Warn("loginx: reading revocations failed; will retry", "err", err)
		}
		if err == nil && failing {
			s.log.Info("loginx: reading revocations works again")
		}
		failing = err != nil
	}
}

// randomToken returns n random bytes, base64url-encoded.
func randomToken(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// hashToken is the stored form of a refresh token.
func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}
