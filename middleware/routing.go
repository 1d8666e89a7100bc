package middleware

import (
	"net/http"
	"net/url"
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

// DecodePathParams sets each path parameter of the matched route to its
// segment of the request's escaped path, decoded as a path segment
// (url.PathUnescape: "+" is a plus, "%2B" too, "%20" a space). Put it in
// front of handlers that read names from the path.
//
// Without it the value depends on the rest of the path: with
// engine.UseRawPath and UnescapePathValues (what Mount's doc recommends),
// gin matches on URL.RawPath when the request's escaping is not the
// canonical one (say "%c3%b4" in lower-case hex anywhere in the path)
// and then decodes each value with url.QueryUnescape, which turns "+"
// into a space: "/api/membership/john+test/r%c3%b4le" named the user
// "john test", while the same path with "%C3%B4" named "john+test".
// Without UseRawPath gin uses URL.Path, decoded as a path already. When
// the escaped path and the route do not have the same segments (an
// encoded "/" in a name, matched on the decoded path), gin's values are
// left alone: they came from URL.Path, which is decoded as a path.
func DecodePathParams() gin.HandlerFunc {
	return func(c *gin.Context) {
		if len(c.Params) == 0 || c.Request.URL.RawPath == "" {
			// Without a RawPath, the request's escaping is the canonical
			// one and gin took the values from URL.Path, decoded as a path
			// already: what this would set them to.
			return
		}
		route := strings.Split(c.FullPath(), "/")
		raw := strings.Split(c.Request.URL.EscapedPath(), "/")
		if len(route) != len(raw) {
			return
		}
		for i, seg := range route {
			if len(seg) < 2 || seg[0] != ':' {
				continue
			}
			v, err := url.PathUnescape(raw[i])
			if err != nil {
				continue
			}
			for j := range c.Params {
				if c.Params[j].Key == seg[1:] {
					c.Params[j].Value = v
				}
			}
		}
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
