package authz

import (
	"errors"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/puzpuzpuz/xsync/v3"

	"github.com/rolegate/rolegate/middleware"
)

// Metrics. rolegate registers its collectors on the host's
// prometheus.Registerer (Config.MetricsRegisterer) and, with
// Config.EnableMetrics, serves GET /metrics on the mount; with neither,
// az.metrics is nil and every counting call below is a nil check.
//
// Every name is prefixed rolegate_. No label carries a user, a client key
// or fingerprint, a permission or a raw path: routes are Gin's route
// templates (bounded by the host's route table), providers the configured
// ones ("unknown" for anything else).
type meters struct {
	reg        prometheus.Registerer
	gatherer   prometheus.Gatherer // what GET /metrics serves; nil without EnableMetrics
	collectors []prometheus.Collector

	decisions     *prometheus.CounterVec // route, outcome
	routes        *xsync.MapOf[string, *routeDecisions]
	checkWarm     prometheus.Observer
	checkCold     prometheus.Observer
	hits          atomic.Uint64 // read by rolegate_cache_hits_total
	misses        prometheus.Counter
	invalidations [invalidationCauses]prometheus.Counter
	storeErrors   *prometheus.CounterVec // operation
	reconnects    prometheus.Counter
	revisionLag   prometheus.Observer
	requests      *prometheus.CounterVec // route, status
	logins        *prometheus.CounterVec // provider, result
	auditWritten  prometheus.Counter
	auditDropped  prometheus.Counter
	logDropped    prometheus.Counter
}

// warmSampleMask: one warm check in warmSampleMask+1 is timed (the one
// that starts when the hit count is a multiple of 64). A warm check costs
// tens of nanoseconds, about what two clock reads cost, so timing every
// one would double it; a 1-in-64 sample shows the distribution as well at
// a sixtieth of the cost, and deciding costs one atomic load of the hit
// count, which the hit adds to anyway. Misses are always timed (they read
// the store).
const warmSampleMask = 63

// invalidationCause is why entries left the decision cache.
type invalidationCause uint8

const (
	// invalidLocalWrite: this process's own write dropped what it touched.
	invalidLocalWrite invalidationCause = iota
	// invalidReplica: another replica's change, read from the change log.
	invalidReplica
	// invalidFlush: the whole cache of a client dropped (a lost listener,
	// a failed revision check, changes elsewhere the log cannot explain, a
	// write that did not commit, a batch).
	invalidFlush
	invalidationCauses
)

var invalidationLabels = [invalidationCauses]string{"local_write", "replica_change", "flush"}

// Store operations counted in rolegate_store_errors_total.
const (
	storeOpCacheRead     = "cache_read"
	storeOpRevisionCheck = "revision_check"
	storeOpWrite         = "write"
	storeOpAudit         = "audit"
)

// routeDecisions are one route's decision counters, resolved once.
type routeDecisions struct {
	route string
	by    [middleware.GuardOutcomes]prometheus.Counter
}

// newMetrics builds the collectors and registers them on reg (a fresh
// registry of its own when reg is nil and serve is set). serve: GET
// /metrics will be mounted, so it needs a Gatherer.
func newMetrics(reg prometheus.Registerer, serve bool, az *Authz) (*meters, error) {
	m := &meters{reg: reg, routes: xsync.NewMapOf[string, *routeDecisions]()}
	own := false
	if reg == nil {
		r := prometheus.NewRegistry()
		m.reg, m.gatherer, own = r, r, true
	} else if serve {
		g, ok := reg.(prometheus.Gatherer)
		if !ok {
			return nil, errors.New("authz: AUTH_ENABLE_METRICS needs a MetricsRegisterer that is also a prometheus.Gatherer (a *prometheus.Registry), or none")
		}
		m.gatherer = g
	}
	if !serve {
		m.gatherer = nil
	}
	counter := func(name, help string) prometheus.Counter {
		c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
		m.collectors = append(m.collectors, c)
		return c
	}
	counterVec := func(name, help string, labels ...string) *prometheus.CounterVec {
		c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
		m.collectors = append(m.collectors, c)
		return c
	}
	m.decisions = counterVec("rolegate_guard_decisions_total",
		"Guard decisions on the host's routes, by route template and outcome (allowed, denied, unauthenticated, unavailable).",
		"route", "outcome")
	checks := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "rolegate_check_duration_seconds",
		Help: "Duration of permission and role checks: cache=warm answered from memory (1 in 64 sampled), cache=cold read the store.",
		// 100 ns to 0.4 s: a warm check is well under a microsecond, a
		// cold one a store round trip.
		Buckets: prometheus.ExponentialBuckets(100e-9, 4, 12),
	}, []string{"cache"})
	m.collectors = append(m.collectors, checks)
	m.checkWarm, m.checkCold = checks.WithLabelValues("warm"), checks.WithLabelValues("cold")
	m.collectors = append(m.collectors, prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "rolegate_cache_hits_total", Help: "Checks answered from the decision cache.",
	}, func() float64 { return float64(m.hits.Load()) }))
	m.misses = counter("rolegate_cache_misses_total", "Checks that needed the store.")
	m.collectors = append(m.collectors, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "rolegate_cache_entries",
		Help: "Entries (users and role permission sets) in the decision caches of all clients.",
	}, func() float64 { return float64(az.cacheBudget.Used()) }))
	inv := counterVec("rolegate_cache_invalidations_total",
		"Decision cache invalidations by cause: local_write (this process's write), replica_change (another replica's, from the change log), flush (a client's whole cache).",
		"cause")
	for i, l := range invalidationLabels {
		m.invalidations[i] = inv.WithLabelValues(l)
	}
	m.storeErrors = counterVec("rolegate_store_errors_total",
		"Store operations that failed, by operation (cache_read, revision_check, write, audit).", "operation")
	for _, op := range []string{storeOpCacheRead, storeOpRevisionCheck, storeOpWrite, storeOpAudit} {
		m.storeErrors.WithLabelValues(op) // present at zero from the start
	}
	m.collectors = append(m.collectors, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "rolegate_change_listener_up",
		Help: "1 while the PostgreSQL change listener is connected, else 0 (always 0 on SQLite, which has none).",
	}, func() float64 {
		if az.listenerLive.Load() {
			return 1
		}
		return 0
	}))
	m.reconnects = counter("rolegate_change_listener_reconnects_total", "Times the change listener connected again after losing its connection.")
	lag := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "rolegate_revision_lag",
		Help: "Revisions of other replicas a client's cache had not yet reflected when a revision check (a notification, or the periodic check) found it behind.",
		// 1 (the usual: one write elsewhere, one notification) to 1024.
		Buckets: prometheus.ExponentialBuckets(1, 2, 11),
	})
	m.collectors = append(m.collectors, lag)
	m.revisionLag = lag
	m.requests = counterVec("rolegate_http_requests_total",
		"Requests to rolegate's own routes (REST, login, ping, metrics), by route template and status code.", "route", "code")
	m.logins = counterVec("rolegate_logins_total",
		"Login attempts by provider (the configured ones; unknown for any other) and result (success, or the error code).",
		"provider", "result")
	m.auditWritten = counter("rolegate_audit_records_total", "Audit records written.")
	m.auditDropped = counter("rolegate_audit_refusals_dropped_total",
		"Refused requests not recorded in the audit log because they came faster than AUTH_AUDIT_REFUSALS_PER_SECOND.")
	m.logDropped = counter("rolegate_decision_log_dropped_total",
		"Guard decisions chosen for the decision log but not logged because they came faster than AUTH_DECISION_LOG_PER_SECOND.")
	if own {
		m.collectors = append(m.collectors,
			collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	for i, c := range m.collectors {
		if err := m.reg.Register(c); err != nil {
			for _, done := range m.collectors[:i] {
				m.reg.Unregister(done)
			}
			return nil, errors.New("authz: metrics: " + err.Error() + " (one registerer per Authz: Close the previous one first)")
		}
	}
	return m, nil
}

// unregister takes the collectors off the registerer, so that an Authz
// opened again later can register on it.
func (m *meters) unregister() {
	if m == nil {
		return
	}
	for _, c := range m.collectors {
		m.reg.Unregister(c)
	}
}

// routeCounters returns the decision counters of route, resolved once.
func (m *meters) routeCounters(route string) *routeDecisions {
	if rd, ok := m.routes.Load(route); ok {
		return rd
	}
	rd, _ := m.routes.LoadOrCompute(route, func() *routeDecisions {
		rd := &routeDecisions{route: route}
		label := route
		if label == "" {
			label = "none" // a guard outside any route (NoRoute, say)
		}
		for o := range rd.by {
			rd.by[o] = m.decisions.WithLabelValues(label, middleware.GuardOutcome(o).String())
		}
		return rd
	})
	return rd
}

// sampleWarm reports whether this warm check is timed.
func (m *meters) sampleWarm() bool { return m.hits.Load()&warmSampleMask == 0 }

// hit counts a check answered from the cache; start is zero unless it was
// sampled.
func (m *meters) hit(start time.Time) {
	m.hits.Add(1)
	if !start.IsZero() {
		m.checkWarm.Observe(time.Since(start).Seconds())
	}
}

// miss counts a check that needed the store, started at start.
func (m *meters) miss(start time.Time) {
	m.misses.Inc()
	m.checkCold.Observe(time.Since(start).Seconds())
}

func (m *meters) invalidated(cause invalidationCause) {
	if m != nil {
		m.invalidations[cause].Inc()
	}
}

func (m *meters) storeError(op string) {
	if m != nil {
		m.storeErrors.WithLabelValues(op).Inc()
	}
}

func (m *meters) reconnected() {
	if m != nil {
		m.reconnects.Inc()
	}
}

func (m *meters) lag(n int64) {
	if m != nil && n > 0 {
		m.revisionLag.Observe(float64(n))
	}
}

func (m *meters) audited(n int) {
	if m != nil && n > 0 {
		m.auditWritten.Add(float64(n))
	}
}

func (m *meters) auditSkipped() {
	if m != nil {
		m.auditDropped.Inc()
	}
}

func (m *meters) decisionLogSkipped() {
	if m != nil {
		m.logDropped.Inc()
	}
}

// login counts one login attempt; provider is "unknown" unless it names a
// configured provider, so that strangers cannot mint label values.
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
	m.logins.WithLabelValues(provider, result).Inc()
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
