package middleware

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/puzpuzpuz/xsync/v3"
)

// Logger logs one line per request at the end of it: method, path, status,
// duration and request id (when RequestID runs before it). The path is the
// matched route pattern, not the concrete path, because concrete paths
// carry user, role and permission names that may be encrypted at rest;
// query strings, headers and bodies are never logged since they carry
// client keys and tokens. 5xx responses log at Error level; reads answered
// without error (GET and HEAD, status below 400) at Debug, since a check
// route answered thousands of times a second would otherwise write a line
// per check, costing more than the check; the rest (writes, refusals,
// errors) at Info. A nil l means slog.Default().
//
// One line per request: when the route's chain already holds Gin's own
// logger (gin.Default, gin.Logger), the host logs the request, and this
// line drops to Debug (5xx stay at Error), so a request is not logged
// twice at the default level.
func Logger(l *slog.Logger) gin.HandlerFunc {
	hostLogs := xsync.NewMapOf[routeKey, bool]() // whether the route's chain holds gin's logger
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		log := l
		if log == nil {
			log = slog.Default()
		}
		status := c.Writer.Status()
		ctx := c.Request.Context()
		level := slog.LevelInfo
		switch {
		case status >= 500:
			level = slog.LevelError
		case !log.Enabled(ctx, slog.LevelInfo) && !log.Enabled(ctx, slog.LevelDebug):
			return // the line would be dropped at either level: build nothing
		case status < 400 && (c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead):
			level = slog.LevelDebug // a read that went well
		case chainHasGinLogger(c, hostLogs):
			level = slog.LevelDebug
		}
		if !log.Enabled(ctx, level) {
			return
		}
		var buf [6]slog.Attr
		attrs := append(buf[:0],
			slog.String("method", c.Request.Method),
			slog.String("path", routeOf(c)),
			slog.Int("status", status),
			slog.Duration("duration", time.Since(start)),
			slog.String("request_id", RequestIDFrom(c)),
		)
		if theirs := ClientRequestIDFrom(c); theirs != "" {
			// The caller's correlation id, beside ours, never as ours.
			attrs = append(attrs, slog.String("client_request_id", theirs))
		}
		log.LogAttrs(ctx, level, "request", attrs...)
	}
}

// chainHasGinLogger reports whether the request's handler chain holds
// gin's logger, once per route (the handler names cost a lookup each).
func chainHasGinLogger(c *gin.Context, seen *xsync.MapOf[routeKey, bool]) bool {
	key := routeKey{c.Request.Method, c.FullPath()}
	if v, ok := seen.Load(key); ok {
		return v
	}
	has := false
	for _, n := range c.HandlerNames() {
		if strings.HasPrefix(n, "github.com/gin-gonic/gin.LoggerWithConfig") {
			has = true
			break
		}
	}
	if c.FullPath() != "" { // unmatched paths have no stable chain to remember
		seen.Store(key, has)
	}
	return has
}

// routeKey names a route: its method and pattern.
type routeKey struct{ method, path string }
