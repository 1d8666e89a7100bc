package middleware

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-contrib/cors"
	"github.com/gin-gonic/gin"
)

// CORSConfig selects which browser origins may call the routes.
type CORSConfig struct {
	// Enabled turns CORS handling on (AUTH_ALLOW_CORS). When false, CORS
	// returns a handler that does nothing, and browsers apply their
	// same-origin policy.
	Enabled bool
	// Origins lists allowed origins (AUTH_CORS_ORIGINS, already split on
	// commas). "*" alone allows any origin but without credentials, since
	// browsers refuse credentials with a wildcard and reflecting any origin
	// with credentials would let every site act for the user. Otherwise
	// each entry is an exact scheme://host[:port] origin (http or https;
	// a trailing "/" is dropped) and credentials are allowed. Surrounding
	// spaces and empty entries are ignored.
	Origins []string
}

// HeaderTotalCount is the response header in which a list route reports
// how many entries match the request's filter, whatever the page (GET
// /api/roles and /api/users). CORS exposes it to scripts of the allowed
// origins, like the request id.
const HeaderTotalCount = "X-Total-Count"

// corsAllowHeaders are the request headers the rolegate routes, the login
// and the samples read.
var corsAllowHeaders = []string{
	"Authorization", "Content-Type", "X-API-KEY", "X-Auth-Token", "X-User-Id", HeaderRequestID,
}

// CORS returns CORS middleware built on gin-contrib/cors with the headers
// and methods (GET, POST, PUT, DELETE, OPTIONS) of the rolegate routes. A request
// from an origin that is not allowed gets 403 with the error envelope.
// Configuration errors are returned, not panicked, which gin-contrib/cors
// would do.
func CORS(cfg CORSConfig) (gin.HandlerFunc, error) {
	if !cfg.Enabled {
		return func(*gin.Context) {}, nil
	}
	origins, anyOrigin, err := normaliseOrigins(cfg.Origins)
	if err != nil {
		return nil, err
	}
	cc := cors.Config{
		AllowMethods: []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodOptions},
		AllowHeaders: corsAllowHeaders,
		// What a script of an allowed origin may read: the request id, the
		// total of a list, a write's revision token (for ?at_least=) and
		// how long to wait after a 429.
		ExposeHeaders: []string{HeaderRequestID, "WWW-Authenticate", HeaderTotalCount, "Rolegate-Revision", "Retry-After"},
		MaxAge:        12 * time.Hour,
	}
	if anyOrigin {
		cc.AllowAllOrigins = true
	} else {
		cc.AllowOrigins = origins
		cc.AllowCredentials = true
	}
	if err := cc.Validate(); err != nil {
		return nil, fmt.Errorf("cors: %w", err)
	}
	inner := cors.New(cc)
	if anyOrigin {
		return inner, nil
	}
	allowed := make(map[string]struct{}, len(origins))
	for _, o := range origins {
		allowed[o] = struct{}{}
	}
	return func(c *gin.Context) {
		// gin-contrib/cors answers a foreign origin with a bare 403; refuse
		// it first so that the client gets the envelope like every other
		// refusal. Same-host requests carrying Origin are not CORS and pass.
		if o := c.Request.Header.Get("Origin"); o != "" && !sameHost(o, c.Request.Host) {
			if _, ok := allowed[o]; !ok {
				Fail(c, http.StatusForbidden, "Forbidden", "origin not allowed")
				return
			}
		}
		inner(c)
	}, nil
}

func sameHost(origin, host string) bool {
	return origin == "http://"+host || origin == "https://"+host
}

// normaliseOrigins validates the configured origins. Wildcard patterns and
// gin-contrib/cors's "/regexp/" entries are refused: the former widen
// trust silently, the latter are compiled on every request and panic on a
// bad pattern.
func normaliseOrigins(in []string) (origins []string, anyOrigin bool, err error) {
	for _, raw := range in {
		o := strings.TrimSpace(raw)
		if o == "" {
			continue
		}
		if o == "*" {
			anyOrigin = true
			continue
		}
		o = strings.TrimSuffix(o, "/")
		u, perr := url.Parse(o)
		if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" ||
			strings.Contains(o, "*") || strings.ContainsAny(o, " \t") {
			return nil, false, fmt.Errorf("cors: bad origin %q: want scheme://host[:port] with http or https, or *", raw)
		}
		origins = append(origins, strings.ToLower(o))
	}
	if anyOrigin && len(origins) > 0 {
		return nil, false, errors.New("cors: \"*\" cannot be combined with explicit origins")
	}
	if !anyOrigin && len(origins) == 0 {
		return nil, false, errors.New("cors: enabled with no origins")
	}
	return origins, anyOrigin, nil
}
