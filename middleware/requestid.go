package middleware

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"net/http"
	"sync"

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
		r := &request{id: newRequestID()}
		if theirs := c.Request.Header[canonicalRequestID]; len(theirs) > 0 && saneRequestID(theirs[0]) {
			r.clientID = theirs[0]
		}
		c.Set(requestCtx, r)
		c.Writer.Header()[canonicalRequestID] = []string{r.id}
		c.Next()
	}
}

// idSources are ChaCha8 generators (a CSPRNG) seeded from crypto/rand,
// one per concurrent user: a request id costs neither a system call nor a
// lock, and stays unpredictable.
var idSources = sync.Pool{New: func() any {
	var seed [32]byte
	crand.Read(seed[:])
	return rand.NewChaCha8(seed)
}}

// newRequestID returns a random (version 4) UUID in its usual text form.
func newRequestID() string {
	var u uuid.UUID
	src := idSources.Get().(*rand.ChaCha8)
	binary.LittleEndian.PutUint64(u[:8], src.Uint64())
	binary.LittleEndian.PutUint64(u[8:], src.Uint64())
	idSources.Put(src)
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // variant 10
	return u.String()
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
