package middleware

import (
	"errors"
	"log/slog"
	"net/http"
	"runtime/debug"
	"syscall"

	"github.com/gin-gonic/gin"
)

// Recovery is RecoveryWithLogger with slog.Default().
func Recovery() gin.HandlerFunc {
	return RecoveryWithLogger(nil)
}

// RecoveryWithLogger recovers panics in later handlers and answers 500 with
// the error envelope, whose detail is only "internal error": the panic value
// and stack go to the log, never to the client. The log line carries the
// method, the route, the request id, the panic value and the stack, never
// request headers (they hold client keys and session tokens).
//
// Two panics are not bugs. http.ErrAbortHandler is re-panicked, as net/http
// expects, so that the server aborts the connection instead of letting a
// half-written response look complete. A broken pipe or reset connection
// is logged briefly and the chain aborted without writing, as gin does:
// the client is gone. A nil logger means slog.Default().
func RecoveryWithLogger(l *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			rec := recover()
			if rec == nil {
				return
			}
			log := l
			if log == nil {
				log = slog.Default()
			}
			err, _ := rec.(error)
			if err != nil && errors.Is(err, http.ErrAbortHandler) {
				panic(rec)
			}
			attrs := []slog.Attr{
				slog.String("method", c.Request.Method),
				slog.String("path", routeOf(c)),
				slog.String("request_id", RequestIDFrom(c)),
			}
			if err != nil && (errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)) {
				log.LogAttrs(c.Request.Context(), slog.LevelWarn, "connection lost while writing the response",
					append(attrs, slog.String("error", err.Error()))...)
				_ = c.Error(err)
				c.Abort()
				return
			}
			log.LogAttrs(c.Request.Context(), slog.LevelError, "panic recovered",
				append(attrs, slog.Any("panic", rec), slog.String("stack", string(debug.Stack())))...)
			if c.Writer.Written() {
				// Headers are gone; nothing truthful can be added.
				c.Abort()
				return
			}
			Fail(c, http.StatusInternalServerError, "Internal Server Error", "internal error")
		}()
		c.Next()
	}
}
