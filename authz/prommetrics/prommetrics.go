// Package prommetrics counts rolegate's metrics with Prometheus
// (client_golang). A host that wants them imports this package and sets
// Config.Observer; with AUTH_ENABLE_METRICS=true Mount serves them at
// GET <mount>/metrics:
//
//	cfg.Observer = prommetrics.New(nil) // a registry of rolegate's own
//	cfg.Observer = prommetrics.New(reg) // the host's *prometheus.Registry
//
// A host that does not import it links no Prometheus code.
//
// Every name is prefixed rolegate_. No label carries a user, a client key
// or fingerprint, a permission or a raw path: routes are Gin's route
// templates (bounded by the host's route table), providers the configured
// ones ("unknown" for anything else).
package prommetrics

import (
	"errors"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/rolegate/rolegate/authz/internal/observe"
)

// Observer registers rolegate's collectors when an Authz opens and takes
// them off when it closes. One Authz at a time per Observer.
type Observer struct {
	reg    prometheus.Registerer
	active atomic.Bool
}

// New returns an Observer that registers on reg. With reg nil it uses a
// registry of its own, which also carries the Go runtime and process
// collectors. GET /metrics serves reg when it is also a
// prometheus.Gatherer (a *prometheus.Registry); with a Registerer that
// cannot gather, AUTH_ENABLE_METRICS fails Open.
func New(reg prometheus.Registerer) *Observer { return &Observer{reg: reg} }

// Start builds and registers the collectors (observe.Observer).
func (o *Observer) Start(r observe.Readings) (observe.Metrics, error) {
	if !o.active.CompareAndSwap(false, true) {
		return nil, errors.New("authz: metrics: this prommetrics.Observer already serves an open Authz (one per Authz: Close the previous one first)")
	}
	m, err := newMeters(o.reg, r)
	if err != nil {
		o.active.Store(false)
		return nil, err
	}
	m.done = func() { o.active.Store(false) }
	return m, nil
}

type meters struct {
	reg        prometheus.Registerer
	handler    http.Handler // GET /metrics; nil when reg cannot gather
	collectors []prometheus.Collector
	done       func()

	decisions     *prometheus.CounterVec // route, outcome
	byPredicate   *prometheus.CounterVec // route, outcome
	checkWarm     prometheus.Observer
	checkCold     prometheus.Observer
	misses        prometheus.Counter
	invalidations map[string]prometheus.Counter // by cause
	storeErrors   *prometheus.CounterVec        // operation
	reconnects    prometheus.Counter
	revisionLag   prometheus.Observer
	requests      *prometheus.CounterVec // route, status
	logins        *prometheus.CounterVec // provider, result
	auditWritten  prometheus.Counter
	auditDropped  prometheus.Counter
	logDropped    prometheus.Counter
}

func newMeters(reg prometheus.Registerer, r observe.Readings) (*meters, error) {
	m := &meters{reg: reg, invalidations: map[string]prometheus.Counter{}}
	own := false
	var gatherer prometheus.Gatherer
	if reg == nil {
		r := prometheus.NewRegistry()
		m.reg, gatherer, own = r, r, true
	} else if g, ok := reg.(prometheus.Gatherer); ok {
		gatherer = g
	}
	if gatherer != nil {
		m.handler = promhttp.HandlerFor(gatherer, promhttp.HandlerOpts{ErrorLog: nil})
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
	m.byPredicate = counterVec("rolegate_guard_predicate_decisions_total",
		"Guard decisions that the host's predicate (OrIf, AndIf) settled rather than the permission, by route template and outcome; also counted in rolegate_guard_decisions_total.",
		"route", "outcome")
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
	}, func() float64 { return float64(r.CacheHits()) }))
	m.misses = counter("rolegate_cache_misses_total", "Checks that needed the store.")
	m.collectors = append(m.collectors, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "rolegate_cache_entries",
		Help: "Entries (users and role permission sets) in the decision caches of all clients.",
	}, func() float64 { return float64(r.CacheEntries()) }))
	inv := counterVec("rolegate_cache_invalidations_total",
		"Decision cache invalidations by cause: local_write (this process's write), replica_change (another replica's, from the change log), flush (a client's whole cache).",
		"cause")
	for _, l := range observe.InvalidationLabels {
		m.invalidations[l] = inv.WithLabelValues(l)
	}
	m.storeErrors = counterVec("rolegate_store_errors_total",
		"Store operations that failed, by operation (cache_read, revision_check, write, audit).", "operation")
	for _, op := range observe.StoreOps {
		m.storeErrors.WithLabelValues(op) // present at zero from the start
	}
	m.collectors = append(m.collectors, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "rolegate_change_listener_up",
		Help: "1 while the PostgreSQL change listener is connected, else 0 (always 0 on SQLite, which has none).",
	}, func() float64 {
		if r.ListenerUp() {
			return 1
		}
		return 0
	}))
	m.reconnects = counter("rolegate_change_listener_reconnects_total", "Times the change listener connected again after losing its connection.")
	if r.StandbyReads != nil && r.StandbyFallbacks != nil {
		// With a read replica only (AUTH_POSTGRESQL_READ_URL): the
		// counts are kept where reads are routed, and read here.
		m.collectors = append(m.collectors, prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "rolegate_standby_reads_total",
			Help: "Reads (cache fills, lists) the read replica answered, once it had replayed the revision they needed.",
		}, func() float64 { return float64(r.StandbyReads()) }))
		for why, label := range observe.FallbackLabels {
			m.collectors = append(m.collectors, prometheus.NewCounterFunc(prometheus.CounterOpts{
				Name:        "rolegate_standby_fallbacks_total",
				Help:        "Reads that could have gone to the read replica and went to the primary, by reason: behind (it had not replayed what they needed within AUTH_POSTGRESQL_READ_WAIT), down (not answering lately), busy (every connection in use), failed (it failed the read, run again on the primary).",
				ConstLabels: prometheus.Labels{"reason": label},
			}, func() float64 { return float64(r.StandbyFallbacks(observe.Fallback(why))) }))
		}
	}
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

// Stop takes the collectors off the registerer, so that an Authz opened
// again later can register on it.
func (m *meters) Stop() {
	for _, c := range m.collectors {
		m.reg.Unregister(c)
	}
	m.done()
}

func (m *meters) Handler() http.Handler { return m.handler }

func (m *meters) DecisionCounter(route, outcome string) observe.Counter {
	return m.decisions.WithLabelValues(route, outcome)
}

func (m *meters) PredicateDecisionCounter(route, outcome string) observe.Counter {
	return m.byPredicate.WithLabelValues(route, outcome)
}

func (m *meters) CheckDuration(warm bool, d time.Duration) {
	if warm {
		m.checkWarm.Observe(d.Seconds())
	} else {
		m.checkCold.Observe(d.Seconds())
	}
}

func (m *meters) CacheMiss() { m.misses.Inc() }

func (m *meters) CacheInvalidated(cause string) {
	if c, ok := m.invalidations[cause]; ok {
		c.Inc()
	}
}

func (m *meters) StoreError(op string)   { m.storeErrors.WithLabelValues(op).Inc() }
func (m *meters) ListenerReconnected()   { m.reconnects.Inc() }
func (m *meters) RevisionLag(n int64)    { m.revisionLag.Observe(float64(n)) }
func (m *meters) AuditRecords(n int)     { m.auditWritten.Add(float64(n)) }
func (m *meters) AuditRefusalDropped()   { m.auditDropped.Inc() }
func (m *meters) DecisionLogDropped()    { m.logDropped.Inc() }
func (m *meters) Login(p, result string) { m.logins.WithLabelValues(p, result).Inc() }

func (m *meters) Request(route string, code int) {
	m.requests.WithLabelValues(route, strconv.Itoa(code)).Inc()
}
