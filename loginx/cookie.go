package loginx

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// The session cookie (Config.SessionCookie): the authToken a login or a
// refresh answers, kept by the browser where no script reads it. It
// goes only to the routes under the login's own mount (the admin API,
// the console, the host's routes mounted beside them), and never to
// another site's request (SameSite=Strict); a write it authenticates
// must also come from the same origin (Authenticate), since SameSite
// lets a sibling origin (another port or subdomain of the site) send it.

// setSessionCookie sets the cookie to token, valid for the token's life.
func (s *Service) setSessionCookie(c *gin.Context, token string) {
	if !s.cfg.SessionCookie {
		return
	}
	s.writeCookie(c, token, int(s.cfg.AccessTTL/time.Second))
}

// clearSessionCookie tells the browser to drop the cookie.
func (s *Service) clearSessionCookie(c *gin.Context) {
	if !s.cfg.SessionCookie {
		return
	}
	s.writeCookie(c, "", -1)
}

func (s *Service) writeCookie(c *gin.Context, value string, maxAge int) {
	http.SetCookie(c.Writer, &http.Cookie{
		Name: SessionCookieName, Value: value, Path: cookiePath(c.FullPath()), MaxAge: maxAge,
		HttpOnly: true, Secure: s.cfg.HTTPS(c.Request), SameSite: http.SameSiteStrictMode,
	})
}

// cookiePath is the mount of the login routes: the route's template up
// to "/api/v1/", so that the cookie reaches the admin API and the
// console beside them and nothing of the host's outside the mount.
func cookiePath(route string) string {
	if i := strings.Index(route, "/api/v1/"); i >= 0 {
		return route[:i+1]
	}
	return "/"
}

// sessionCookie is the request's session cookie, "" when there is none
// or cookies are off.
func (s *Service) sessionCookie(r *http.Request) string {
	if !s.cfg.SessionCookie {
		return ""
	}
	ck, err := r.Cookie(SessionCookieName)
	if err != nil {
		return ""
	}
	return ck.Value
}
