package middleware

import (
	"errors"
	"net/textproto"

	"github.com/gin-gonic/gin"
)

// ErrNoUser is what a Resolver returns when the request carries no
// authenticated user; guards answer 401.
var ErrNoUser = errors.New("no authenticated user")

// ErrResolverUnavailable is what a Resolver returns (possibly wrapped) when
// it cannot decide because something it depends on is down, such as the
// session store; guards answer 503 instead of 401 so that clients retry
// rather than log in again.
var ErrResolverUnavailable = errors.New("user resolver unavailable")

// Resolver finds the user of a request. It returns the RBAC user name, or
// an error: ErrNoUser (or any other error) for 401, ErrResolverUnavailable
// for 503. An empty name with a nil error also counts as no user.
type Resolver func(c *gin.Context) (user string, err error)

// HeaderResolver returns a Resolver that takes the user name from the given
// request header, for host apps that authenticate upstream (a proxy or
// gateway that sets, say, X-User-Id).
//
// It trusts the header completely: anyone who can reach the app without
// passing through that upstream can claim to be any user. Use it only when
// the upstream strips or overwrites the header on every incoming request.
// A missing, empty or repeated header gives ErrNoUser; an empty header name
// gives a resolver that never finds a user.
func HeaderResolver(header string) Resolver {
	// Canonicalise once so that the per-request lookup is a plain map
	// index, with no allocation.
	key := textproto.CanonicalMIMEHeaderKey(header)
	return func(c *gin.Context) (string, error) {
		if key == "" {
			return "", ErrNoUser
		}
		values := c.Request.Header[key]
		if len(values) != 1 || values[0] == "" {
			return "", ErrNoUser
		}
		return values[0], nil
	}
}
