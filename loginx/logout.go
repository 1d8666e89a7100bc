package loginx

import (
	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/storage"
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
	ok(c, gin.H{"message": "You've been logged out!"})
}

// revoke revokes a session in the store and in this process.
func (s *Service) revoke(c *gin.Context, sid string) error {
	now := s.cfg.Now()
	exp := now.Add(s.cfg.AccessTTL).UnixMilli()
	if _, err := storage.RevokeLoginSession(c.Request.Context(), s.db, sid, now.UnixMilli(), exp); err != nil {
		return err
	}
	s.revoked.add(sid, exp)
	return nil
}

// handleMe answers the me record of the request's session.
func (s *Service) handleMe(c *gin.Context) {
	sess, err := s.Authenticate(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	u, err := storage.LoginUserByID(ctx, s.db, sess.UserID)
	if err != nil {
		if err == storage.ErrLoginNotFound {
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
