package authz

import (
	"errors"
	"time"

	"github.com/rolegate/rolegate/authz/internal/observe"
	"github.com/rolegate/rolegate/middleware"
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
	o, err := observe.Start(cfg.Observer, outcomes, az.cacheBudget.Used, az.listenerLive.Load)
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
func (m *meters) miss(start time.Time)                               { m.o.Miss(start) }

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

func (c *Client) dropDeletedRole(cause invalidationCause, role string) {
	c.cache.DeleteRole(role)
	c.az.metrics.invalidated(cause)
}

func (c *Client) flushCache() {
	c.cache.Flush()
	c.az.metrics.invalidated(invalidFlush)
}
