package loginx

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Session is a verified session token.
type Session struct {
	// UserID is the login user's id (the sub claim).
	UserID string
	// Username is the RBAC user name.
	Username string
	// SessionID identifies the login; logout and refresh reuse revoke it.
	SessionID string
	// ExpiresAt is when this authToken expires.
	ExpiresAt time.Time
}

// sessionClaims are the claims of an authToken.
type sessionClaims struct {
	Username  string `json:"username"`
	SessionID string `json:"sid"`
	jwt.RegisteredClaims
}

// tokens issues and verifies authTokens. Verified tokens are cached by
// their whole string; a cached entry still has its expiry and its
// session's revocation checked on every use.
type tokens struct {
	method  jwt.SigningMethod
	key     []byte
	issuer  string
	ttl     time.Duration
	now     func() time.Time
	parser  *jwt.Parser
	revoked *revocations

	cacheMax int64
	cache    atomic.Pointer[tokenCache]
}

type tokenCache struct {
	m sync.Map // token string -> *Session
	n atomic.Int64
}

func newTokens(alg string, key []byte, cfg Config, revoked *revocations) *tokens {
	t := &tokens{
		method:   jwt.GetSigningMethod(alg),
		key:      key,
		issuer:   cfg.Issuer,
		ttl:      cfg.AccessTTL,
		now:      cfg.Now,
		revoked:  revoked,
		cacheMax: int64(cfg.TokenCacheSize),
		parser: jwt.NewParser(
			jwt.WithValidMethods([]string{alg}),
			jwt.WithIssuer(cfg.Issuer),
			jwt.WithExpirationRequired(),
			jwt.WithIssuedAt(),
			jwt.WithTimeFunc(cfg.Now),
		),
	}
	t.cache.Store(&tokenCache{})
	return t
}

// issue signs an authToken for the session.
func (t *tokens) issue(userID, username, sessionID string) (string, time.Time, error) {
	now := t.now()
	exp := now.Add(t.ttl)
	jti, err := randomToken(16)
	if err != nil {
		return "", time.Time{}, err
	}
	claims := sessionClaims{
		Username:  username,
		SessionID: sessionID,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    t.issuer,
			Subject:   userID,
			ID:        jti,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(exp),
		},
	}
	s, err := jwt.NewWithClaims(t.method, claims).SignedString(t.key)
	return s, exp, err
}

// verify returns the session of a genuine, unexpired, unrevoked authToken.
// Every refusal wraps ErrInvalidSession.
func (t *tokens) verify(raw string) (Session, error) {
	c := t.cache.Load()
	if v, ok := c.m.Load(raw); ok {
		s := v.(*Session)
		if !t.now().Before(s.ExpiresAt) {
			c.m.Delete(raw)
			return Session{}, fmt.Errorf("%w: expired", ErrInvalidSession)
		}
		if t.revoked.has(s.SessionID) {
			return Session{}, fmt.Errorf("%w: revoked", ErrInvalidSession)
		}
		return *s, nil
	}
	var claims sessionClaims
	if _, err := t.parser.ParseWithClaims(raw, &claims, t.keyFunc); err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return Session{}, fmt.Errorf("%w: expired", ErrInvalidSession)
		}
		return Session{}, fmt.Errorf("%w: does not verify", ErrInvalidSession)
	}
	if claims.Subject == "" || claims.Username == "" || claims.SessionID == "" {
		return Session{}, fmt.Errorf("%w: incomplete claims", ErrInvalidSession)
	}
	if t.revoked.has(claims.SessionID) {
		return Session{}, fmt.Errorf("%w: revoked", ErrInvalidSession)
	}
	s := &Session{UserID: claims.Subject, Username: claims.Username, SessionID: claims.SessionID, ExpiresAt: claims.ExpiresAt.Time}
	if c.n.Add(1) > t.cacheMax {
		// Full: start over rather than track recency on the hot path.
		t.cache.CompareAndSwap(c, &tokenCache{})
	} else {
		c.m.Store(raw, s)
	}
	return *s, nil
}

func (t *tokens) keyFunc(*jwt.Token) (any, error) { return t.key, nil }
