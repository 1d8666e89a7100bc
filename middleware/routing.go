package middleware

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// NotFound answers 404 with the error envelope. Set it as engine.NoRoute.
func NotFound() gin.HandlerFunc {
	return func(c *gin.Context) {
		Fail(c, http.StatusNotFound, "Not Found", "route not found")
	}
}

// MethodNotAllowed answers 405 with the error envelope. Set it as
// engine.NoMethod; gin only calls it when engine.HandleMethodNotAllowed is
// true, and has already set the Allow header.
func MethodNotAllowed() gin.HandlerFunc {
	return func(c *gin.Context) {
		Fail(c, http.StatusMethodNotAllowed, "Method Not Allowed", "method not allowed for this route")
	}
}

// NotFoundUnder answers unknown paths at or under prefix ("/api" covers
// "/api" and "/api/...", not "/apix") with NotFound's envelope and leaves
// the host's other 404s alone: fallback handles them, or, when fallback is
// nil, gin writes its default plain "404 page not found". This lets a host
// opt into the envelope for rolegate's routes only.
func NotFoundUnder(prefix string, fallback gin.HandlerFunc) gin.HandlerFunc {
	return under(prefix, NotFound(), fallback)
}

// MethodNotAllowedUnder is NotFoundUnder for 405 and engine.NoMethod.
func MethodNotAllowedUnder(prefix string, fallback gin.HandlerFunc) gin.HandlerFunc {
	return under(prefix, MethodNotAllowed(), fallback)
}

func under(prefix string, inside, fallback gin.HandlerFunc) gin.HandlerFunc {
	prefix = strings.TrimRight(prefix, "/")
	return func(c *gin.Context) {
		if hasPathPrefix(c.Request.URL.Path, prefix) {
			inside(c)
			return
		}
		if fallback != nil {
			fallback(c)
		}
		// With no fallback nothing is written, and gin's serveError then
		// writes its own default body for the status it already set.
	}
}

// hasPathPrefix matches whole path segments. An empty prefix (from "" or
// "/") matches every path.
func hasPathPrefix(path, prefix string) bool {
	if !strings.HasPrefix(path, prefix) {
		return false
	}
	return len(path) == len(prefix) || path[len(prefix)] == '/'
}

// routeOf is what logs show as the path: the matched route pattern
// ("/api/membership/:user/:group"), because concrete paths carry user,
// role and permission names, which the store may keep encrypted and which
// must then not appear in logs in plain text. Unmatched requests log a
// fixed placeholder for the same reason.
func routeOf(c *gin.Context) string {
	if r := c.FullPath(); r != "" {
		return r
	}
	return "(unmatched)"
}
