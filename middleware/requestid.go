package middleware

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
)

// HeaderRequestID is the request and response header carrying the request
// id.
const HeaderRequestID = "X-Request-ID"

// canonicalRequestID is HeaderRequestID as a key of http.Header.
var canonicalRequestID = http.CanonicalHeaderKey(HeaderRequestID)

// maxRequestIDLen bounds what we accept from clients: the id goes into logs
// and audit records.
const maxRequestIDLen = 64

// RequestID gives every request an id of our own: a fresh random UUID,
// always. A client cannot choose it, so an id in our logs and audit
// records is one we issued, once, and can never be made to collide with
// another request's or to point at somebody else's records. The id is set
// on the response header and available through RequestIDFrom.
//
// An incoming X-Request-ID (a caller's correlation id) is kept apart,
// available through ClientRequestIDFrom, when it is sane (1 to 64
// characters of A-Z a-z 0-9 . _ -, so it cannot forge log lines or carry
// markup); otherwise it is dropped. It is never echoed back as ours.
func RequestID() gin.HandlerFunc {
	return func(c *gin.Context) {
		// The header maps by their canonical key: no canonicalising per
		// request.
		if theirs := c.Request.Header[canonicalRequestID]; len(theirs) > 0 && saneRequestID(theirs[0]) {
			c.Set(clientRequestIDCtx, theirs[0])
		}
		id := uuid.NewString()
		c.Set(requestIDCtx, id)
		c.Writer.Header()[canonicalRequestID] = []string{id}
		c.Next()
	}
}

func saneRequestID(s string) bool {
	if s == "" || len(s) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case 'a' <= ch && ch <= 'z', 'A' <= ch && ch <= 'Z', '0' <= ch && ch <= '9',
			ch == '.', ch == '_', ch == '-':
		default:
			return false
		}
	}
	return true
}
