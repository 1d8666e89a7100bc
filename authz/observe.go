package authz

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/cache"
	"github.com/rolegate/rolegate/authz/internal/observe"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// Metrics go through the host's Observer (Config.Observer; package
// authz/prommetrics is Prometheus's), so that the core links no metrics
// library. Without one, az.metrics is nil and every counting call below
// is a nil check. The measurements themselves live in
// authz/internal/observe; this file is the glue to the Authz's state.

// Observer receives rolegate's measurements (Config.Observer). Package
// authz/prommetrics implements it with Prometheus; a host may implement
// it for another metrics system.
type Observer = observe.Observer

// ObserverReadings are the values an Observer reads at collection time.
type ObserverReadings = observe.Readings

// ObserverMetrics receives the measurements of one open Authz.
type ObserverMetrics = observe.Metrics

// ObserverCounter is one counter of an ObserverMetrics.
type ObserverCounter = observe.Counter

// errMetricsNoObserver: AUTH_ENABLE_METRICS without an Observer.
var errMetricsNoObserver = errors.New("authz: AUTH_ENABLE_METRICS is set but Config.Observer is nil: import github.com/rolegate/rolegate/authz/prommetrics and set Config.Observer = prommetrics.New(nil) (or unset AUTH_ENABLE_METRICS)")

type invalidationCause = observe.InvalidationCause

const (
	invalidLocalWrite = observe.InvalidLocalWrite
	invalidReplica    = observe.InvalidReplica
	invalidFlush      = observe.InvalidFlush
)

const (
	storeOpCacheRead     = observe.StoreOpCacheRead
	storeOpRevisionCheck = observe.StoreOpRevisionCheck
	storeOpWrite         = observe.StoreOpWrite
	storeOpAudit         = observe.StoreOpAudit
)

// meters is the Authz's side of its metrics; nil without an Observer.
type meters struct {
	o       *observe.Meters
	enabled bool // EnableMetrics: Mount serves GET /metrics
}

// newMetrics starts cfg.Observer for az; nil without one. With
// EnableMetrics, the Observer must be able to serve its metrics.
func newMetrics(cfg Config, az *Authz) (*meters, error) {
	if cfg.Observer == nil {
		if cfg.EnableMetrics {
			// Not a Validate problem: ConfigFromEnv reads the setting
			// before the host sets its Observer.
			return nil, errMetricsNoObserver
		}
		return nil, nil
	}
	outcomes := make([]string, middleware.GuardOutcomes)
	for o := range outcomes {
		outcomes[o] = middleware.GuardOutcome(o).String()
	}
	r := observe.Readings{CacheEntries: az.cacheBudget.Used, ListenerUp: az.feed.Live}
	if az.reader.Standby() {
		r.StandbyReads, r.StandbyFallbacks = az.reader.Served, az.reader.FellBack
	}
	o, err := observe.Start(cfg.Observer, outcomes, r)
	if err != nil {
		return nil, err
	}
	if cfg.EnableMetrics && o.Handler() == nil {
		o.Stop()
		return nil, errors.New("authz: AUTH_ENABLE_METRICS needs an Observer that can serve its metrics (prommetrics.New with a *prometheus.Registry, or nil)")
	}
	return &meters{o: o, enabled: cfg.EnableMetrics}, nil
}

// serves reports whether Mount serves GET /metrics.
func (m *meters) serves() bool { return m != nil && m.o.Handler() != nil && m.enabled }

func (m *meters) unregister() {
	if m != nil {
		m.o.Stop()
	}
}

func (m *meters) routeCounters(route string) *observe.RouteDecisions { return m.o.RouteCounters(route) }
func (m *meters) sampleWarm() bool                                   { return m.o.SampleWarm() }
func (m *meters) hit(start time.Time)                                { m.o.Hit(start) }

func (m *meters) invalidated(cause invalidationCause) {
	if m != nil {
		m.o.Invalidated(cause)
	}
}

func (m *meters) storeError(op string) {
	if m != nil {
		m.o.StoreError(op)
	}
}

func (m *meters) reconnected() {
	if m != nil {
		m.o.Reconnected()
	}
}

func (m *meters) lag(n int64) {
	if m != nil {
		m.o.Lag(n)
	}
}

func (m *meters) audited(n int) {
	if m != nil {
		m.o.Audited(n)
	}
}

func (m *meters) auditSkipped() {
	if m != nil {
		m.o.AuditSkipped()
	}
}

func (m *meters) decisionLogSkipped() {
	if m != nil {
		m.o.DecisionLogSkipped()
	}
}

// loginOutcome counts one login attempt; provider is "unknown" unless it
// names a configured provider, so that strangers cannot mint label values.
func (az *Authz) loginOutcome(provider, result string) {
	m := az.metrics
	if m == nil {
		return
	}
	known := false
	for _, p := range az.cfg.OAuthProviders {
		if p.Name == provider {
			known = true
			break
		}
	}
	if !known {
		provider = "unknown"
	}
	m.o.Login(provider, result)
}

// Cache drops, counted by cause.

func (c *Client) dropUser(cause invalidationCause, user string) {
	c.cache.InvalidateUser(user)
	c.az.metrics.invalidated(cause)
}

func (c *Client) dropRole(cause invalidationCause, role string) {
	c.cache.InvalidateRole(role)
	c.az.metrics.invalidated(cause)
}

// dropRoleRead is dropRole for this process's own committed write: the
// sets it kills are read again first (cache.InvalidateRoleRead), so that
// no check waits for them.
func (c *Client) dropRoleRead(ctx context.Context, role string) {
	c.cache.InvalidateRoleRead(ctx, role, storeLoader{c}.primaryRoleGrants)
	c.az.metrics.invalidated(invalidLocalWrite)
}

func (c *Client) dropDeletedRole(cause invalidationCause, role string) {
	c.cache.DeleteRole(role)
	c.az.metrics.invalidated(cause)
}

func (c *Client) flushCache() {
	c.cache.Flush()
	c.az.metrics.invalidated(invalidFlush)
}

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
	return observe.NewTracing(cfg.TracerProvider, cfg.TextMapPropagator, storage.TracerName, cfg.TraceUserNames, refusalReason)
}

// missLayers wrap the client's cache's miss path: metrics outermost (a
// miss is timed with its span and store read), then tracing; nil layers
// (metrics or tracing off) are skipped.
func (c *Client) missLayers() []cache.Layer {
	var misses cache.Layer
	if c.metrics != nil {
		misses = c.metrics.o.Misses()
	}
	return []cache.Layer{misses, c.az.tracing.ColdChecks(c.fingerprint)}
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
