package loginx

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/loginx/internal/store"
)

// handleLogout revokes the session of the request's authToken, here at
// once and on other replicas at their next poll.
func (s *Service) handleLogout(c *gin.Context) {
	sess, err := s.Authenticate(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	if err := s.revoke(c, sess.SessionID); err != nil {
		s.fail(c, err)
		return
	}
	s.clearSessionCookie(c)
	ok(c, gin.H{"message": "You've been logged out!"})
}

// revoke revokes a session in the store and in this process. The store
// keeps the revocation until the session's last token expires.
func (s *Service) revoke(c *gin.Context, sid string) error {
	now := s.cfg.Now()
	exp := now.Add(s.cfg.AccessTTL).UnixMilli()
	if _, err := store.RevokeSession(c.Request.Context(), s.db, sid, now.UnixMilli(), exp); err != nil {
		return err
	}
	// Memory may forget it once every token this process accepted for it
	// has expired (lookup then finds the revoked row).
	s.sessions.revoke(sid, exp+SessionLeeway.Milliseconds())
	return nil
}

// SetUserActive activates or deactivates a login user (by the "_id" of
// its me record). Deactivating ends every session of the user at once:
// here immediately, on other replicas at their next revocation poll; a
// login racing with it either fails or has its session ended too.
func (s *Service) SetUserActive(ctx context.Context, userID string, active bool) error {
	now := s.cfg.Now()
	if err := store.SetUserActive(ctx, s.db, userID, active, now.UnixMilli(), now.Add(s.cfg.AccessTTL).UnixMilli()); err != nil {
		return err
	}
	return s.sessions.poll(ctx, now)
}

// handleMe answers the me record of the request's session.
func (s *Service) handleMe(c *gin.Context) {
	sess, err := s.Authenticate(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	u, err := store.UserByID(ctx, s.db, sess.UserID)
	if err != nil {
		if err == store.ErrNotFound {
			err = ErrInvalidSession
		}
		s.fail(c, err)
		return
	}
	if !u.Active {
		s.fail(c, inactive())
		return
	}
	me, err := s.meRecord(ctx, u)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok(c, me)
}
