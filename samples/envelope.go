package samples

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// timestampLayout is the envelope's RFC 3339 UTC timestamp with microseconds,
// the same shape as rolegate's other envelopes.
const timestampLayout = "2006-01-02T15:04:05.000000Z"

// basicChallenge is the WWW-Authenticate value sent with every 401.
const basicChallenge = `Basic realm="rolegate samples"`

// errorEnvelope mirrors rolegate's error envelope. It is written here because
// samples imports no other rolegate package.
type errorEnvelope struct {
	Success   bool   `json:"success"`
	Code      int    `json:"code"`
	Message   string `json:"message"`
	Error     string `json:"error"`
	Timestamp string `json:"timestamp"`
}

// unauthorized answers 401 with a Basic challenge and the error envelope.
// detail must never contain what the client sent.
func unauthorized(c *gin.Context, now time.Time, detail string) {
	c.Header("WWW-Authenticate", basicChallenge)
	c.AbortWithStatusJSON(http.StatusUnauthorized, errorEnvelope{
		Success:   false,
		Code:      http.StatusUnauthorized,
		Message:   http.StatusText(http.StatusUnauthorized),
		Error:     detail,
		Timestamp: now.UTC().Format(timestampLayout),
	})
}
