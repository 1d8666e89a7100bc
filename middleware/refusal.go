package middleware

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// Refusal describes why a guard refused a request. Status is 400 (a scope
// not in Unicode NFC), 401 (no user), 403 (not allowed), 404 (the scope
// function or predicate found no such resource) or 503 (authentication or
// authorization could not decide); Reason is a fixed text safe to show a
// client ("scope is not in Unicode normalization form C", "authentication
// required", "insufficient permissions", "not found", "authentication
// unavailable", "authorization unavailable"). It never carries the user,
// the required names or an error's text.
type Refusal struct {
	Status int
	Reason string
}

// RefusalFunc writes a guard's refusal in the host's own error shape, for
// example c.JSON(r.Status, gin.H{"errors": gin.H{"auth": r.Reason}}). The
// guard decides the status: whatever code the function writes, r.Status is
// sent. The guard aborts the chain afterwards; a function that writes
// nothing gets the error envelope.
type RefusalFunc func(c *gin.Context, r Refusal)

// fail refuses the request with status, through the host's RefusalFunc
// when there is one.
func (g *guard) fail(c *gin.Context, status int, message, detail string) {
	if g.refuse == nil {
		Fail(c, status, message, detail)
		return
	}
	if status == http.StatusUnauthorized && c.Writer.Header().Get("WWW-Authenticate") == "" {
		c.Header("WWW-Authenticate", "Bearer") // RFC 9110: every 401 carries a challenge
	}
	w := c.Writer
	c.Writer = fixedStatus{ResponseWriter: w, status: status}
	c.Status(status)
	g.refuse(c, Refusal{Status: status, Reason: detail})
	c.Writer = w
	if !w.Written() {
		Fail(c, status, message, detail)
		return
	}
	c.Abort()
}

// fixedStatus keeps the guard's status whatever code the host's
// RefusalFunc asks for.
type fixedStatus struct {
	gin.ResponseWriter
	status int
}

func (w fixedStatus) WriteHeader(int) { w.ResponseWriter.WriteHeader(w.status) }
