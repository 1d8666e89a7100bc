package authz

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/observe"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// Traces go to the host's TracerProvider (Config.TracerProvider; nil: no
// tracing, and none of this runs); the spans and their attributes are
// described and made in authz/internal/observe, with OpenTelemetry's API
// only. Config.TraceUserNames adds the user a check, a membership write
// or a REST request is about as rolegate.user. This file is the glue.

// Attribute keys of rolegate's own spans.
const (
	attrClient  = observe.AttrClient
	attrUser    = observe.AttrUser
	attrAllowed = observe.AttrAllowed
	attrChanged = observe.AttrChanged
)

// tracing is what spans need; nil without a TracerProvider.
type tracing = observe.Tracing

// newTracing returns nil when cfg has no TracerProvider.
func newTracing(cfg Config) *tracing {
	return observe.NewTracing(cfg.TracerProvider, storage.TracerName, cfg.TraceUserNames, refusalReason)
}

// coldCheck runs a check the decision cache could not answer from memory
// (check is c.cache.Allowed or c.cache.HasRole) in a span of its own.
func (c *Client) coldCheck(ctx context.Context, kind, scope, user, name string,
	check func(ctx context.Context, user, scope, name string) (bool, error)) (bool, error) {
	return c.az.tracing.ColdCheck(ctx, c.fingerprint, kind, scope, user, name, check)
}

// startWrite starts a write's span; the returned end takes the write's
// outcome. user is the member a membership write is about, if any.
func (c *Client) startWrite(ctx context.Context, action, user string) (context.Context, func(changed bool, err error)) {
	return c.az.tracing.StartWrite(ctx, c.fingerprint, action, user)
}

// traceRequests is the REST span middleware; nil without a
// TracerProvider.
func (az *Authz) traceRequests() gin.HandlerFunc {
	if az.tracing == nil {
		return nil
	}
	return az.tracing.Requests(func(c *gin.Context) (string, bool) {
		if key, ok := middleware.ClientKeyFrom(c); ok {
			if cl, err := az.Client(key); err == nil {
				return cl.fingerprint, true
			}
		}
		return "", false
	})
}
