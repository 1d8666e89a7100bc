package middleware

import (
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
)

// HeaderRequestID is the request and response header carrying the request
// id.
const HeaderRequestID = "X-Request-ID"

// maxRequestIDLen bounds what we accept from clients: the id goes into logs
// and audit records.
const maxRequestIDLen = 64

// RequestID gives every request an id: the incoming X-Request-ID when it is
// sane (1 to 64 characters of A-Z a-z 0-9 . _ -, so it cannot forge log
// lines or carry markup), otherwise a fresh random UUID. The id is set on
// the response header and available through RequestIDFrom.
func RequestID() gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader(HeaderRequestID)
		if !saneRequestID(id) {
			id = uuid.NewString()
		}
		c.Set(requestIDCtx, id)
		c.Header(HeaderRequestID, id)
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
