package observe

import (
	"context"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/rolegate/rolegate/authz/internal/cache"
	"github.com/rolegate/rolegate/middleware"
)

// Traces go to the host's TracerProvider (nil: no tracing, and none of
// this runs). Only OpenTelemetry's API is used: a host that sets no
// provider links no SDK. Spans:
//
//   - one server span per request on a route Mount registered, named by
//     method and route template ("GET /api/role/:role"), never by the raw
//     path, which holds names;
//   - one span per cold check ("rolegate.check.cold": a guard or library
//     check the decision cache could not answer; a layer of the cache's
//     miss path, see ColdChecks) and per write
//     ("rolegate.write add_role"); warm checks make none, so the hot path
//     stays as it is;
//   - inside these, one client span per store round trip (see
//     storage.Traced).
//
// Attribute keys are those of the semantic conventions v1.40, written out
// rather than imported, as in storage.Traced, so that no semconv package
// sets the host's otel version.
//
// Attributes name the client by its keyed fingerprint (the one the audit
// log shows), never by its key, and carry no role, permission or user
// names. With user names on, the user a check, a membership write or a
// REST request is about is added as rolegate.user.

// Attribute keys of rolegate's own spans.
const (
	AttrClient  = attribute.Key("rolegate.client")  // keyed fingerprint of the client key
	AttrUser    = attribute.Key("rolegate.user")    // only with user names on
	AttrCheck   = attribute.Key("rolegate.check")   // "permission" or "role"
	AttrScoped  = attribute.Key("rolegate.scoped")  // the check was in a scope
	AttrAllowed = attribute.Key("rolegate.allowed") // the check's answer
	AttrAction  = attribute.Key("rolegate.action")  // a write's action (add_role, ...)
	AttrChanged = attribute.Key("rolegate.changed") // the write changed something
)

// Tracing is what spans need; nil without a TracerProvider.
type Tracing struct {
	tracer    trace.Tracer
	userNames bool
	prop      propagation.TextMapPropagator
	reason    func(error) string // an error's reason, never its text
}

// NewTracing returns nil when tp is nil. prop reads incoming trace
// headers (nil: none are read); name is the tracer's name; reason names
// an error on a span (error.type) without its text.
func NewTracing(tp trace.TracerProvider, prop propagation.TextMapPropagator, name string, userNames bool, reason func(error) string) *Tracing {
	if tp == nil {
		return nil
	}
	return &Tracing{tracer: tp.Tracer(name), userNames: userNames, prop: prop, reason: reason}
}

// user is the rolegate.user attribute, when the host opted in and there
// is a user. The user can come straight from the request (the path of a
// REST request, a header resolver's header) before any name check, so a
// string that could never be a name is not copied into the span: only its
// length is.
func (t *Tracing) user(attrs []attribute.KeyValue, user string) []attribute.KeyValue {
	if t.userNames && user != "" {
		if !middleware.ValidName(user) {
			user = "(not a valid name: " + strconv.Itoa(len(user)) + " bytes)"
		}
		attrs = append(attrs, AttrUser.String(user))
	}
	return attrs
}

// end records err on span (its reason, never its text) and ends it.
func (t *Tracing) end(span trace.Span, err error) {
	if err != nil {
		span.SetAttributes(attribute.String("error.type", t.reason(err)))
		span.SetStatus(codes.Error, "")
	}
	span.End()
}

// ColdChecks is the tracing layer of the decision cache's miss path: each
// check the cache could not answer from memory runs in a span of its own
// ("rolegate.check.cold"), the store's spans inside it; client is the
// client's fingerprint. nil without tracing.
func (t *Tracing) ColdChecks(client string) cache.Layer {
	if t == nil {
		return nil
	}
	return func(next cache.Miss) cache.Miss {
		return func(ctx context.Context, q cache.Query) (bool, error) {
			ctx, span := t.tracer.Start(ctx, "rolegate.check.cold", trace.WithAttributes(
				t.user([]attribute.KeyValue{AttrClient.String(client), AttrCheck.String(q.Kind.String()), AttrScoped.Bool(q.Scope != "")}, q.User)...))
			ok, err := next(ctx, q)
			if err == nil {
				span.SetAttributes(AttrAllowed.Bool(ok))
			}
			t.end(span, err)
			return ok, err
		}
	}
}

// StartWrite starts a write's span; the returned end takes the write's
// outcome. user is the member a membership write is about, if any.
func (t *Tracing) StartWrite(ctx context.Context, client, action, user string) (context.Context, func(changed bool, err error)) {
	if t == nil {
		return ctx, func(bool, error) {}
	}
	ctx, span := t.tracer.Start(ctx, "rolegate.write "+action, trace.WithAttributes(
		t.user([]attribute.KeyValue{AttrClient.String(client), AttrAction.String(action)}, user)...))
	return ctx, func(changed bool, err error) {
		if err == nil {
			span.SetAttributes(AttrChanged.Bool(changed))
		}
		t.end(span, err)
	}
}

// Requests is the REST span middleware, first in Mount's chain so that
// it sees the final status (a recovered panic's 500 included); nil
// without a TracerProvider. A span already in the request's context (the
// host's own HTTP instrumentation) is the parent; otherwise the incoming
// trace headers are, through the host's propagator. client returns the
// fingerprint of the request's client, if any.
func (t *Tracing) Requests(client func(c *gin.Context) (string, bool)) gin.HandlerFunc {
	if t == nil {
		return nil
	}
	return func(c *gin.Context) {
		ctx := c.Request.Context()
		if t.prop != nil && !trace.SpanContextFromContext(ctx).IsValid() {
			ctx = t.prop.Extract(ctx, propagation.HeaderCarrier(c.Request.Header))
		}
		route := c.FullPath()
		ctx, span := t.tracer.Start(ctx, c.Request.Method+" "+route, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(attribute.String("http.request.method", c.Request.Method), attribute.String("http.route", route)))
		defer span.End()
		c.Request = c.Request.WithContext(ctx)
		c.Next()
		status := c.Writer.Status()
		attrs := []attribute.KeyValue{attribute.Int("http.response.status_code", status)}
		if fp, ok := client(c); ok {
			attrs = append(attrs, AttrClient.String(fp))
		}
		span.SetAttributes(t.user(attrs, c.Param("user"))...)
		if status >= http.StatusInternalServerError {
			span.SetAttributes(attribute.String("error.type", strconv.Itoa(status)))
			span.SetStatus(codes.Error, "")
		}
	}
}
