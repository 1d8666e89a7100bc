package authz

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
)

// metricsHandler is GET /metrics: what the Observer serves (the
// Prometheus text format with prommetrics). On a closed admin plane (AUTH_CLIENT_KEY or
// AUTH_CLIENT_KEYS set) it takes an admin key as a bearer token, as the
// REST API does (Prometheus: authorization.credentials in the scrape
// config); in open mode, where any key is a namespace of its own, it is
// open like GET /ping. The metrics carry no user, key, client or
// permission: routes, outcomes, counts.
func (az *Authz) metricsHandler() gin.HandlerFunc {
	h := az.metrics.o.Handler()
	accept := az.admins.accept()
	return func(c *gin.Context) {
		if accept != nil {
			token, ok := strings.CutPrefix(c.GetHeader("Authorization"), "Bearer ")
			key, err := middleware.ParseClientKey(strings.TrimSpace(token))
			if !ok || err != nil || !accept(key) {
				c.Header("WWW-Authenticate", "Bearer")
				middleware.Fail(c, http.StatusUnauthorized, http.StatusText(http.StatusUnauthorized), "an admin key is required")
				return
			}
		}
		c.Header("Cache-Control", "no-store")
		h.ServeHTTP(c.Writer, c.Request)
	}
}

// countRequests counts every request to rolegate's own routes by route
// template and status, after the rest of the chain ran.
func (m *meters) countRequests(c *gin.Context) {
	c.Next()
	m.o.Request(c.FullPath(), c.Writer.Status())
}
