package samples

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// PingLayout is the Go layout of GET /api/ping's body (dd.MM.yyyy, HH:mm:ss).
const PingLayout = "02.01.2006, 15:04:05"

// Details of the 401 envelopes. They say what is required, never what was
// sent, and do not tell which of the credentials was wrong.
const (
	detailBasic       = "valid Basic credentials are required"
	detailBasicAndKey = "valid Basic credentials and X-API-KEY header are required"
)

// identity is GET /api/test's answer.
type identity struct {
	Name  string `json:"Name"`
	Email string `json:"Email"`
}

// server is a compiled Config: digests instead of secrets, defaults applied.
type server struct {
	creds credentials
	id    identity
	now   func() time.Time
}

// Register mounts GET /api/ping and GET /api/test on r, which may be an
// engine or a group (under a group with prefix /x the routes are
// /x/api/ping and /x/api/test). The routes take Basic credentials (and, for
// /api/test, X-API-KEY) from cfg and no client key, so r must not carry a
// middleware that demands one. It returns an error wrapping ErrNotEnabled,
// and mounts nothing, when cfg is not Enabled.
func Register(r gin.IRouter, cfg Config) error {
	if !cfg.Enabled() {
		return fmt.Errorf("%w: %s empty", ErrNotEnabled, strings.Join(cfg.missing(), ", "))
	}
	s := &server{
		creds: newCredentials(cfg),
		id:    identity{Name: cfg.Name, Email: cfg.Email},
		now:   cfg.Now,
	}
	if s.id.Name == "" {
		s.id.Name = DefaultName
	}
	if s.id.Email == "" {
		s.id.Email = DefaultEmail
	}
	if s.now == nil {
		s.now = time.Now
	}
	r.GET("/api/ping", s.ping)
	r.GET("/api/test", s.test)
	return nil
}

// ping answers the server's current local date and time as plain text.
func (s *server) ping(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	user, pass, ok := c.Request.BasicAuth()
	if !s.creds.basic(user, pass, ok) {
		unauthorized(c, s.now(), detailBasic)
		return
	}
	c.String(http.StatusOK, "%s", s.now().Local().Format(PingLayout))
}

// test answers the configured Name and Email.
func (s *server) test(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	user, pass, ok := c.Request.BasicAuth()
	if !s.creds.basicAndKey(user, pass, ok, c.GetHeader("X-API-KEY")) {
		unauthorized(c, s.now(), detailBasicAndKey)
		return
	}
	c.JSON(http.StatusOK, s.id)
}
