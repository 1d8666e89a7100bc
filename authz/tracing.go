package authz

import (
	"context"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// Traces go to the host's TracerProvider (Config.TracerProvider; nil: no
// tracing, and none of this runs). Spans:
//
//   - one server span per request on a route Mount registered, named by
//     method and route template ("GET /api/role/:role"), never by the raw
//     path, which holds names;
//   - one span per cold check ("rolegate.check.cold": a guard or library
//     check the decision cache could not answer) and per write
//     ("rolegate.write add_role"); warm checks make none, so the hot path
//     stays as it is;
//   - inside these, one client span per store round trip (see
//     storage.Traced).
//
// Attributes name the client by its keyed fingerprint (the one the audit
// log shows), never by its key, and carry no role, permission or user
// names. Config.TraceUserNames adds the user a check, a membership write
// or a REST request is about as rolegate.user.

// Attribute keys of rolegate's own spans.
const (
	attrClient  = attribute.Key("rolegate.client")  // keyed fingerprint of the client key
	attrUser    = attribute.Key("rolegate.user")    // only with Config.TraceUserNames
	attrCheck   = attribute.Key("rolegate.check")   // "permission" or "role"
	attrScoped  = attribute.Key("rolegate.scoped")  // the check was in a scope
	attrAllowed = attribute.Key("rolegate.allowed") // the check's answer
	attrAction  = attribute.Key("rolegate.action")  // a write's action (add_role, ...)
	attrChanged = attribute.Key("rolegate.changed") // the write changed something
)

// tracing is what spans need; nil on an Authz without a TracerProvider.
type tracing struct {
	tracer    trace.Tracer
	userNames bool
	prop      propagation.TextMapPropagator
}

// newTracing returns nil when cfg has no TracerProvider.
func newTracing(cfg Config) *tracing {
	if cfg.TracerProvider == nil {
		return nil
	}
	return &tracing{tracer: cfg.TracerProvider.Tracer(storage.TracerName), userNames: cfg.TraceUserNames,
		prop: otel.GetTextMapPropagator()}
}

// user is the rolegate.user attribute, when the host opted in and there
// is a user. The user can come straight from the request (the path of a
// REST request, a header resolver's header) before any name check, so a
// string that could never be a name is not copied into the span: only its
// length is.
func (t *tracing) user(attrs []attribute.KeyValue, user string) []attribute.KeyValue {
	if t.userNames && user != "" {
		if !middleware.ValidName(user) {
			user = "(not a valid name: " + strconv.Itoa(len(user)) + " bytes)"
		}
		attrs = append(attrs, attrUser.String(user))
	}
	return attrs
}

// end records err on span (its reason, never its text) and ends it.
func endSpan(span trace.Span, err error) {
	if err != nil {
		span.SetAttributes(semconv.ErrorTypeKey.String(refusalReason(err)))
		span.SetStatus(codes.Error, "")
	}
	span.End()
}

// coldCheck runs a check the decision cache could not answer from memory
// (check is c.cache.Allowed or c.cache.HasRole) in a span of its own.
func (c *Client) coldCheck(ctx context.Context, kind, scope, user, name string,
	check func(ctx context.Context, user, scope, name string) (bool, error)) (bool, error) {
	t := c.az.tracing
	if t == nil {
		return check(ctx, user, scope, name)
	}
	ctx, span := t.tracer.Start(ctx, "rolegate.check.cold", trace.WithAttributes(
		t.user([]attribute.KeyValue{attrClient.String(c.fingerprint), attrCheck.String(kind), attrScoped.Bool(scope != "")}, user)...))
	ok, err := check(ctx, user, scope, name)
	if err == nil {
		span.SetAttributes(attrAllowed.Bool(ok))
	}
	endSpan(span, err)
	return ok, err
}

// startWrite starts a write's span; the returned end takes the write's
// outcome. user is the member a membership write is about, if any.
func (c *Client) startWrite(ctx context.Context, action, user string) (context.Context, func(changed bool, err error)) {
	t := c.az.tracing
	if t == nil {
		return ctx, func(bool, error) {}
	}
	ctx, span := t.tracer.Start(ctx, "rolegate.write "+action, trace.WithAttributes(
		t.user([]attribute.KeyValue{attrClient.String(c.fingerprint), attrAction.String(action)}, user)...))
	return ctx, func(changed bool, err error) {
		if err == nil {
			span.SetAttributes(attrChanged.Bool(changed))
		}
		endSpan(span, err)
	}
}

// traceRequests is the REST span middleware, first in Mount's chain so
// that it sees the final status (a recovered panic's 500 included); nil
// without a TracerProvider. A span already in the request's context (the
// host's own HTTP instrumentation) is the parent; otherwise the incoming
// trace headers are, through the global propagator.
func (az *Authz) traceRequests() gin.HandlerFunc {
	t := az.tracing
	if t == nil {
		return nil
	}
	return func(c *gin.Context) {
		ctx := c.Request.Context()
		if !trace.SpanContextFromContext(ctx).IsValid() {
			ctx = t.prop.Extract(ctx, propagation.HeaderCarrier(c.Request.Header))
		}
		route := c.FullPath()
		ctx, span := t.tracer.Start(ctx, c.Request.Method+" "+route, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(semconv.HTTPRequestMethodKey.String(c.Request.Method), semconv.HTTPRoute(route)))
		defer span.End()
		c.Request = c.Request.WithContext(ctx)
		c.Next()
		status := c.Writer.Status()
		attrs := []attribute.KeyValue{semconv.HTTPResponseStatusCode(status)}
		if key, ok := middleware.ClientKeyFrom(c); ok {
			if cl, err := az.Client(key); err == nil {
				attrs = append(attrs, attrClient.String(cl.fingerprint))
			}
		}
		span.SetAttributes(t.user(attrs, c.Param("user"))...)
		if status >= http.StatusInternalServerError {
			span.SetAttributes(semconv.ErrorTypeKey.String(strconv.Itoa(status)))
			span.SetStatus(codes.Error, "")
		}
	}
}
