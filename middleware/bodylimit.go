package middleware

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
)

// DefaultBodyLimit is the request body limit of the rolegate routes (64 KiB).
const DefaultBodyLimit int64 = 64 << 10

// BodyLimit refuses request bodies over n bytes. A declared Content-Length
// over n is refused up front with 413 and the error envelope, before any
// byte is read; bodies of unknown length (chunked) are wrapped in
// http.MaxBytesReader, so reading past n fails and handlers map that error
// to 413 with IsBodyTooLarge. A negative n is treated as 0 (no body).
func BodyLimit(n int64) gin.HandlerFunc {
	n = max(n, 0)
	detail := "request body exceeds " + strconv.FormatInt(n, 10) + " bytes"
	return func(c *gin.Context) {
		if c.Request.ContentLength > n {
			// Closing the connection stops a client from streaming the rest
			// of a large body that we would otherwise have to drain.
			c.Header("Connection", "close")
			Fail(c, http.StatusRequestEntityTooLarge, "Request Entity Too Large", detail)
			return
		}
		if c.Request.Body != nil && c.Request.Body != http.NoBody {
			c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, n)
		}
		c.Next()
	}
}

// IsBodyTooLarge reports whether err (typically from decoding the body)
// comes from reading past BodyLimit's limit.
func IsBodyTooLarge(err error) bool {
	var tooLarge *http.MaxBytesError
	return errors.As(err, &tooLarge)
}
