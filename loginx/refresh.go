package loginx

import (
	"errors"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/loginx/internal/store"
)

// handleRefresh exchanges {"refreshToken"} for a new authToken and a new
// refresh token. The old refresh token is spent; presenting it again
// revokes the whole session.
func (s *Service) handleRefresh(c *gin.Context) {
	body, err := readBody(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	m, err := decodeObject(body)
	if err != nil {
		s.fail(c, err)
		return
	}
	old, err := stringField(m, "refreshToken", true)
	if err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	next, err := randomToken(32)
	if err != nil {
		s.fail(c, err)
		return
	}
	now := s.cfg.Now()
	rt := &store.RefreshToken{Hash: hashToken(next), ExpiresAt: now.Add(s.cfg.RefreshTTL).UnixMilli()}
	accessExp := now.Add(s.cfg.AccessTTL).UnixMilli()
	sess, err := store.RotateRefresh(ctx, s.db, hashToken(old), rt, now.UnixMilli(), accessExp, accessExp)
	switch {
	case errors.Is(err, store.ErrRefreshInvalid):
		s.fail(c, unauthorized("invalid-refresh-token", "the refresh token is not valid"))
		return
	case errors.Is(err, store.ErrRefreshReused):
		// The store revoked the session; make it visible here at once.
		_ = s.sessions.poll(ctx, s.cfg.Now())
		s.log.Warn("loginx: a spent refresh token was presented again; its session is revoked")
		s.fail(c, unauthorized("refresh-token-reused", "the refresh token was already used; the session is revoked"))
		return
	case err != nil:
		s.fail(c, err)
		return
	}
	gen := s.sessions.renames.Load()
	u, err := store.UserByID(ctx, s.db, sess.UserID)
	if err != nil {
		s.fail(c, err)
		return
	}
	if !u.Active {
		s.revoke(c, sess.ID)
		s.fail(c, inactive())
		return
	}
	auth, exp, err := s.tokens.issue(now, u.ID, u.Username, sess.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.sessions.started(sess.ID, u.ID, u.Username, exp.Add(SessionLeeway).UnixMilli(), gen)
	s.setSessionCookie(c, auth)
	ok(c, loginData{AuthToken: auth, UserID: u.ID, RefreshToken: next})
}
