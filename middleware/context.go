package middleware

import "github.com/gin-gonic/gin"

// The keys are strings because gin before v1.11 keys its map by string.
// What is stored under them has an unexported type (ctxString, *request),
// so a handler calling c.Set with a plain string under one of these names
// forges nothing: the accessors below accept only this package's types.
const (
	clientKeyCtx = "github.com/rolegate/rolegate/middleware.clientKey"
	userCtx      = "github.com/rolegate/rolegate/middleware.user"
	requestCtx   = "github.com/rolegate/rolegate/middleware.request"
)

// ctxString is a string this package stored.
type ctxString string

// request is what RequestID and ClientKeyAuth learn of a request, kept
// under one key: one entry in gin's map instead of three, and no string
// boxed per value (the hot path of the REST API runs through both).
type request struct {
	id, clientID string // ours, and the caller's correlation id
	key          string // the client key ClientKeyAuth accepted
	keyed        bool
}

func requestFrom(c *gin.Context) *request {
	if v, ok := c.Get(requestCtx); ok {
		r, _ := v.(*request)
		return r
	}
	return nil
}

// ClientKeyFrom returns the normalised (lower-case) client key that
// ClientKeyAuth accepted for this request.
func ClientKeyFrom(c *gin.Context) (string, bool) {
	if r := requestFrom(c); r != nil && r.keyed {
		return r.key, true
	}
	return stringFrom(c, clientKeyCtx)
}

// UserFrom returns the user that a guard resolved and authorised for this
// request. It reports false in handlers that no guard protects.
func UserFrom(c *gin.Context) (string, bool) {
	v, ok := c.Get(userCtx)
	if !ok {
		return "", false
	}
	switch u := v.(type) {
	case *ctxString: // from a UserInterner: see guard.go
		if u == nil {
			return "", false
		}
		return string(*u), true
	case ctxString:
		return string(u), true
	}
	return "", false
}

// RequestIDFrom returns the request id that RequestID assigned, or "" when
// that middleware did not run.
func RequestIDFrom(c *gin.Context) string {
	if r := requestFrom(c); r != nil {
		return r.id
	}
	return ""
}

// ClientRequestIDFrom returns the X-Request-ID the client sent, when it
// was sane, or "". It is the caller's correlation id, not ours: never use
// it where a unique id is needed (see RequestID).
func ClientRequestIDFrom(c *gin.Context) string {
	if r := requestFrom(c); r != nil {
		return r.clientID
	}
	return ""
}

func stringFrom(c *gin.Context, k string) (string, bool) {
	v, ok := c.Get(k)
	if !ok {
		return "", false
	}
	s, ok := v.(ctxString)
	return string(s), ok
}
