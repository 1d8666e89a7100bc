package middleware

import (
	"log/slog"
	"time"

	"github.com/gin-gonic/gin"
)

// Logger logs one line per request at the end of it: method, path, status,
// duration and request id (when RequestID runs before it). The path is the
// matched route pattern, not the concrete path, because concrete paths
// carry user, role and permission names that may be encrypted at rest;
// query strings, headers and bodies are never logged since they carry
// client keys and tokens. 5xx responses log at Error level, the rest at
// Info. A nil l means slog.Default().
func Logger(l *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		log := l
		if log == nil {
			log = slog.Default()
		}
		status := c.Writer.Status()
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		attrs := []slog.Attr{
			slog.String("method", c.Request.Method),
			slog.String("path", routeOf(c)),
			slog.Int("status", status),
			slog.Duration("duration", time.Since(start)),
			slog.String("request_id", RequestIDFrom(c)),
		}
		if theirs := ClientRequestIDFrom(c); theirs != "" {
			// The caller's correlation id, beside ours, never as ours.
			attrs = append(attrs, slog.String("client_request_id", theirs))
		}
		log.LogAttrs(c.Request.Context(), level, "request", attrs...)
	}
}
