package loginx

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/loginx/internal/store"
)

// loginData is the data of a successful login or refresh.
type loginData struct {
	AuthToken    string `json:"authToken"`
	UserID       string `json:"userId"`
	RefreshToken string `json:"refreshToken"`
	Me           *Me    `json:"me,omitempty"`
}

func (s *Service) handleLogin(c *gin.Context) {
	var service string
	var outcome error
	if s.cfg.OnLogin != nil {
		defer func() { s.cfg.OnLogin(service, errorCode(outcome)) }()
	}
	addr := c.ClientIP()
	if s.cfg.RemoteAddr != nil {
		addr = s.cfg.RemoteAddr(c.Request)
	}
	if ok, wait := s.attempts.allow(addr); !ok {
		c.Header("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		outcome = tooManyAttempts(wait)
		s.fail(c, outcome)
		return
	}
	body, err := readBody(c)
	if err != nil {
		outcome = err
		s.fail(c, err)
		return
	}
	req, err := parseLogin(body)
	if err != nil {
		outcome = err
		s.fail(c, err)
		return
	}
	service = req.ServiceName
	data, err := s.login(c.Request.Context(), req)
	if err != nil {
		outcome = err
		var ae *apiError
		if errors.As(err, &ae) || errors.Is(err, ErrProviderUnavailable) {
			// The reason, never the tokens.
			s.log.Info("loginx: login refused", "service", logField(req.ServiceName), "reason", err.Error())
		}
		s.fail(c, err)
		return
	}
	s.setSessionCookie(c, data.AuthToken)
	ok(c, data)
}

// login verifies the provider's tokens, finds or creates the user, and
// starts a session.
func (s *Service) login(ctx context.Context, req loginRequest) (*loginData, error) {
	p, found := s.providers[req.ServiceName]
	if !found {
		return nil, &apiError{http.StatusBadRequest, "unknown-service", "serviceName is not a configured provider"}
	}
	id, err := p.verify(ctx, req.IDToken, req.AccessToken)
	if err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	u := &store.User{
		Service: req.ServiceName, Subject: id.Subject,
		Name: sanitizeName(id.Name, 256), Email: id.Email, EmailVerified: id.emailVerified(),
		AvatarURL: webURL(id.Picture), UTCOffset: utcOffset(id.Zoneinfo, now),
		Status: "online", StatusConnection: "online",
	}
	// The name is chosen at the first login only, and kept.
	var name string
	newName := func() (string, string, error) {
		name = subjectUsername(req.ServiceName, id.Subject)
		claim := p.cfg.UserClaim
		if claim == "" {
			return name, store.UsernameFromSubject, nil
		}
		n, err := claimUsername(claim, id.tokenClaims)
		name = n
		return n, store.UsernameFromClaim(claim), err
	}
	// Before the user's name is read, for the session's entry (see settle).
	gen := s.sessions.renames.Load()
	if _, err := store.UpsertUser(ctx, s.db, u, now.UnixMilli(), newName); err != nil {
		if errors.Is(err, store.ErrUsernameTaken) {
			s.log.Warn("loginx: login refused: the user name belongs to another account",
				"service", req.ServiceName, "username", name)
			return nil, usernameTaken()
		}
		return nil, err
	}
	if !u.Active {
		return nil, inactive()
	}
	data, err := s.startSession(ctx, u, gen)
	if err != nil {
		return nil, err
	}
	if data.Me, err = s.meRecord(ctx, u); err != nil {
		return nil, err
	}
	return data, nil
}

func inactive() *apiError {
	return &apiError{http.StatusForbidden, "user-inactive", "the user is not active"}
}

// startSession stores a new session with its first refresh token and
// signs its first authToken; u was read when s.sessions.renames was gen.
func (s *Service) startSession(ctx context.Context, u *store.User, gen uint64) (*loginData, error) {
	sid, err := randomToken(16)
	if err != nil {
		return nil, err
	}
	refresh, err := randomToken(32)
	if err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	exp := now.Add(s.cfg.AccessTTL)
	sess := &store.Session{ID: sid, UserID: u.ID, CreatedAt: now.UnixMilli(), ExpiresAt: exp.UnixMilli()}
	rt := &store.RefreshToken{Hash: hashToken(refresh), ExpiresAt: now.Add(s.cfg.RefreshTTL).UnixMilli()}
	// The user must still be active in the transaction that starts the
	// session: a deactivation racing with this login then ends it too.
	if err := store.CreateSession(ctx, s.db, sess, rt); errors.Is(err, store.ErrInactive) {
		return nil, inactive()
	} else if err != nil {
		return nil, err
	}
	auth, _, err := s.tokens.issue(now, u.ID, u.Username, sid)
	if err != nil {
		return nil, err
	}
	s.sessions.started(sid, u.ID, u.Username, exp.Add(SessionLeeway).UnixMilli(), gen)
	return &loginData{AuthToken: auth, UserID: u.ID, RefreshToken: refresh}, nil
}
