package middleware

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// timestampLayout fixes six fractional digits so that every timestamp has
// the same width and sorts as text; time.RFC3339Nano would drop trailing
// zeros.
const timestampLayout = "2006-01-02T15:04:05.000000Z"

// Timestamp formats t as the envelopes' timestamp: RFC 3339 in UTC with
// microseconds, for example "2025-01-02T03:04:05.000006Z".
func Timestamp(t time.Time) string {
	return t.UTC().Format(timestampLayout)
}

// SuccessBody is the envelope of every successful response of the rolegate
// routes.
type SuccessBody struct {
	Success   bool   `json:"success"`
	Code      int    `json:"code"`
	Message   string `json:"message"`
	Data      any    `json:"data"`
	Timestamp string `json:"timestamp"`
}

// ErrorBody is the envelope of every refused or failed response of the
// rolegate routes.
type ErrorBody struct {
	Success   bool   `json:"success"`
	Code      int    `json:"code"`
	Message   string `json:"message"`
	Error     string `json:"error"`
	Timestamp string `json:"timestamp"`
}

// Respond writes the success envelope with the given status, message and
// data. It does not abort the chain, so later middleware still runs.
func Respond(c *gin.Context, status int, message string, data any) {
	c.JSON(status, SuccessBody{
		Success:   true,
		Code:      status,
		Message:   message,
		Data:      data,
		Timestamp: Timestamp(time.Now()),
	})
}

// Fail aborts the chain and writes the error envelope. message is a short
// summary ("Unauthorized", "Not Found"; http.StatusText(status) when empty)
// and detail the error text shown to the client, so it must never carry
// secrets or internals. A 401 gets "WWW-Authenticate: Bearer" unless a
// handler already chose a challenge (for example Basic), because RFC 9110
// requires a challenge on every 401.
func Fail(c *gin.Context, status int, message, detail string) {
	if message == "" {
		message = http.StatusText(status)
	}
	if status == http.StatusUnauthorized && c.Writer.Header().Get("WWW-Authenticate") == "" {
		c.Header("WWW-Authenticate", "Bearer")
	}
	c.AbortWithStatusJSON(status, ErrorBody{
		Success:   false,
		Code:      status,
		Message:   message,
		Error:     detail,
		Timestamp: Timestamp(time.Now()),
	})
}
