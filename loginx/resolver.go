package loginx

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
)

// Authenticate returns the session of the request: its authToken comes
// from "Authorization: Bearer <authToken>" or from X-Auth-Token together
// with a matching X-User-Id, else (Config.SessionCookie) from the session
// cookie, in which case a write must come from the same origin
// (middleware.SameOrigin). Every refusal wraps ErrInvalidSession.
func (s *Service) Authenticate(c *gin.Context) (Session, error) {
	h := c.Request.Header
	raw, userID := "", ""
	if a := h.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "Bearer ") {
		raw = strings.TrimSpace(a[7:])
	} else if raw = h.Get("X-Auth-Token"); raw != "" {
		if userID = h.Get("X-User-Id"); userID == "" {
			return Session{}, fmt.Errorf("%w: X-Auth-Token without X-User-Id", ErrInvalidSession)
		}
	} else if h.Get("Authorization") == "" {
		if raw = s.sessionCookie(c.Request); raw != "" {
			if err := middleware.SameOrigin(c.Request); err != nil {
				return Session{}, fmt.Errorf("%w: session cookie: %w", ErrInvalidSession, err)
			}
		}
	}
	if raw == "" {
		return Session{}, fmt.Errorf("%w: no authToken", ErrInvalidSession)
	}
	sess, err := s.tokens.verify(c.Request.Context(), raw)
	if err != nil {
		return Session{}, err
	}
	if userID != "" && userID != sess.UserID {
		return Session{}, fmt.Errorf("%w: X-User-Id does not match", ErrInvalidSession)
	}
	return sess, nil
}

// Resolver returns the guards' resolver: the RBAC user name of a request
// is its session's username. A missing, invalid, expired or revoked
// authToken gives an error wrapping middleware.ErrNoUser (401); a store
// that cannot say whether a session it has not seen yet exists gives
// middleware.ErrResolverUnavailable (503).
func (s *Service) Resolver() middleware.Resolver {
	return func(c *gin.Context) (string, error) {
		sess, err := s.Authenticate(c)
		if err != nil && !errors.Is(err, ErrInvalidSession) {
			return "", fmt.Errorf("%w: %w", middleware.ErrResolverUnavailable, err)
		}
		if err != nil {
			return "", fmt.Errorf("%w: %w", middleware.ErrNoUser, err)
		}
		return sess.Username, nil
	}
}
