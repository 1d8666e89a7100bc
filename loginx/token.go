package loginx

import (
	"context"
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
	// Username is the user's RBAC user name: the current one, whatever the
	// token's username claim says. A session follows its user's id, so
	// after a rename it acts under the new name (on other replicas within
	// their poll, RevocationPollInterval).
	Username string
	// SessionID identifies the login; logout and refresh reuse revoke it.
	SessionID string
	// ExpiresAt is when this authToken expires.
	ExpiresAt time.Time

	acceptUntil time.Time    // ExpiresAt + SessionLeeway
	live        *liveSession // the session's state in memory
}

// sessionClaims are the claims of an authToken.
type sessionClaims struct {
	Username  string `json:"username"`
	SessionID string `json:"sid"`
	jwt.RegisteredClaims
}

// tokens issues and verifies authTokens. A token is accepted only while
// its session exists and is live (see sessions). Verified tokens are
// cached by their whole string; a cached entry still has its expiry and
// its session's state checked on every use.
type tokens struct {
	method   jwt.SigningMethod
	key      []byte
	issuer   string
	ttl      time.Duration
	maxSpan  int64 // longest exp - iat accepted, in seconds
	now      func() time.Time
	parser   *jwt.Parser
	sessions *sessions

	cacheMax int64
	cache    atomic.Pointer[tokenCache]
}

type tokenCache struct {
	m sync.Map // token string -> *Session
	n atomic.Int64
}

func newTokens(alg string, key []byte, cfg Config, sess *sessions) *tokens {
	t := &tokens{
		method: jwt.GetSigningMethod(alg),
		key:    key,
		issuer: cfg.Issuer,
		ttl:    cfg.AccessTTL,
		// iat and exp are whole seconds: round the lifetime up.
		maxSpan:  int64((cfg.AccessTTL + time.Second - 1) / time.Second),
		now:      cfg.Now,
		sessions: sess,
		cacheMax: int64(cfg.TokenCacheSize),
		parser: jwt.NewParser(
			jwt.WithValidMethods([]string{alg}),
			jwt.WithIssuer(cfg.Issuer),
			jwt.WithExpirationRequired(),
			jwt.WithIssuedAt(),
			jwt.WithLeeway(SessionLeeway),
			jwt.WithTimeFunc(cfg.Now),
			// One spelling per token: base64 whose unused low bits are set
			// decodes to the same signature, so without this every token
			// had four spellings that verified.
			jwt.WithStrictDecoding(),
		),
	}
	t.cache.Store(&tokenCache{})
	return t
}

// issue signs an authToken for the session, issued at now.
func (t *tokens) issue(now time.Time, userID, username, sessionID string) (string, time.Time, error) {
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

// verify returns the session of a genuine, unexpired token whose session
// exists and is live. Every refusal wraps ErrInvalidSession.
func (t *tokens) verify(ctx context.Context, raw string) (Session, error) {
	c := t.cache.Load()
	if v, ok := c.m.Load(raw); ok {
		s := v.(*Session)
		if !t.now().Before(s.acceptUntil) {
			c.m.Delete(raw)
			return Session{}, fmt.Errorf("%w: expired", ErrInvalidSession)
		}
		switch s.live.state.Load() {
		case sessionLive:
			return *s, nil
		case sessionRevoked:
			return Session{}, fmt.Errorf("%w: revoked", ErrInvalidSession)
		}
		// sessionGone: memory forgot the session; verify again.
	}
	var claims sessionClaims
	if _, err := t.parser.ParseWithClaims(raw, &claims, t.keyFunc); err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return Session{}, fmt.Errorf("%w: expired", ErrInvalidSession)
		}
		return Session{}, fmt.Errorf("%w: does not verify", ErrInvalidSession)
	}
	if claims.Subject == "" || claims.Username == "" || claims.SessionID == "" || claims.IssuedAt == nil {
		return Session{}, fmt.Errorf("%w: incomplete claims", ErrInvalidSession)
	}
	if claims.ExpiresAt.Unix()-claims.IssuedAt.Unix() > t.maxSpan {
		return Session{}, fmt.Errorf("%w: lives longer than the configured lifetime", ErrInvalidSession)
	}
	live, err := t.sessions.lookup(ctx, claims.SessionID)
	if err != nil {
		return Session{}, err
	}
	// Gone here is an entry settle marked for a rename that may have come
	// while it was read: this request has the name just read.
	if live.state.Load() == sessionRevoked {
		return Session{}, fmt.Errorf("%w: revoked", ErrInvalidSession)
	}
	if live.userID != claims.Subject {
		return Session{}, fmt.Errorf("%w: session of another user", ErrInvalidSession)
	}
	until := claims.ExpiresAt.Add(SessionLeeway)
	live.extend(until.UnixMilli())
	// The name is the user's, found by the session's user id, not the
	// token's claim, which is the name the user had when it was issued.
	s := &Session{UserID: claims.Subject, Username: live.username, SessionID: claims.SessionID,
		ExpiresAt: claims.ExpiresAt.Time, acceptUntil: until, live: live}
	if c.n.Add(1) > t.cacheMax {
		// Full: start over rather than track recency on the hot path.
		t.cache.CompareAndSwap(c, &tokenCache{})
	} else {
		c.m.Store(raw, s)
	}
	return *s, nil
}

func (t *tokens) keyFunc(*jwt.Token) (any, error) { return t.key, nil }
