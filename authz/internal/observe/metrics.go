// Package observe is what rolegate sees of itself: the metrics hooks
// (counted through an Observer the host supplies, so that the core links
// no metrics library), the tracing helpers (OpenTelemetry API only) and
// the decision log's bounds. Package authz keeps only the glue that reads
// its own state.
package observe

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/puzpuzpuz/xsync/v3"

	"github.com/rolegate/rolegate/authz/internal/cache"
)

// Observer turns rolegate's measurements into metrics of some metrics
// system (package prommetrics: Prometheus). Open calls Start once; the
// Metrics it returns is used until Close, which calls its Stop.
type Observer interface {
	Start(r Readings) (Metrics, error)
}

// Readings are the values rolegate keeps itself, read when the metrics
// are collected.
type Readings struct {
	CacheHits    func() uint64 // checks answered from the decision cache
	CacheEntries func() int    // entries in the decision caches of all clients
	ListenerUp   func() bool   // the PostgreSQL change listener is connected
	// StandbyReads and StandbyFallbacks are set when reads may go to a
	// read replica (AUTH_POSTGRESQL_READ_URL), nil otherwise: the reads
	// the standby served, and those that went to the primary instead, by
	// reason (FallbackLabels).
	StandbyReads     func() uint64
	StandbyFallbacks func(Fallback) uint64
}

// Metrics receives the measurements of one Authz. Every method is safe
// for concurrent use and cheap: the hot ones run on the request path.
type Metrics interface {
	// DecisionCounter is the counter of route's guard decisions with
	// outcome (allowed, denied, unauthenticated, unavailable). rolegate
	// asks once per route and outcome and keeps it.
	DecisionCounter(route, outcome string) Counter
	// PredicateDecisionCounter is the counter of route's guard decisions
	// with outcome that the host's predicate settled (OrIf, AndIf) rather
	// than the permission.
	PredicateDecisionCounter(route, outcome string) Counter
	// CheckDuration is one timed check: warm (answered from memory,
	// sampled) or cold (read the store).
	CheckDuration(warm bool, d time.Duration)
	CacheMiss()
	// CacheInvalidated: entries left the decision cache, by cause
	// (InvalidLocalWrite, InvalidReplica, InvalidFlush labels).
	CacheInvalidated(cause string)
	// StoreError: a store operation failed (StoreOp... labels).
	StoreError(op string)
	ListenerReconnected()
	// RevisionLag: revisions of other replicas a cache had not yet
	// reflected when a revision check found it behind (n > 0).
	RevisionLag(n int64)
	// Request: a request to rolegate's own routes ended, by route
	// template ("none" outside any) and status code.
	Request(route string, code int)
	// Login: one login attempt, by configured provider ("unknown" for
	// any other) and result.
	Login(provider, result string)
	AuditRecords(n int)
	AuditRefusalDropped()
	DecisionLogDropped()
	// Handler serves the metrics (GET <mount>/metrics); nil when these
	// metrics cannot be served (AUTH_ENABLE_METRICS then fails Open).
	Handler() http.Handler
	// Stop ends the measurements (Close): a later Start may register
	// the same metrics again.
	Stop()
}

// Counter is one counter, resolved once.
type Counter interface{ Inc() }

// InvalidationCause is why entries left the decision cache.
type InvalidationCause uint8

const (
	// InvalidLocalWrite: this process's own write dropped what it touched.
	InvalidLocalWrite InvalidationCause = iota
	// InvalidReplica: another replica's change, read from the change log.
	InvalidReplica
	// InvalidFlush: the whole cache of a client dropped (a lost listener,
	// a failed revision check, changes elsewhere the log cannot explain, a
	// write that did not commit, a batch).
	InvalidFlush
	invalidationCauses
)

// InvalidationLabels are the causes' label values, by cause.
var InvalidationLabels = [invalidationCauses]string{"local_write", "replica_change", "flush"}

// Store operations counted in rolegate_store_errors_total.
const (
	StoreOpCacheRead     = "cache_read"
	StoreOpRevisionCheck = "revision_check"
	StoreOpWrite         = "write"
	StoreOpAudit         = "audit"
)

// StoreOps are all of them, present at zero from the start.
var StoreOps = []string{StoreOpCacheRead, StoreOpRevisionCheck, StoreOpWrite, StoreOpAudit}

// WarmSampleMask: one warm check in WarmSampleMask+1 is timed (the one
// that starts when the hit count is a multiple of 64). A warm check costs
// tens of nanoseconds, about what two clock reads cost, so timing every
// one would double it; a 1-in-64 sample shows the distribution as well at
// a sixtieth of the cost, and deciding costs one atomic load of the hit
// count, which the hit adds to anyway. Misses are always timed (they read
// the store).
const WarmSampleMask = 63

// Meters is the core's side of the metrics: the hit count it keeps
// itself, the decision counters resolved once per route, and nil checks,
// so that an Authz without an Observer pays one comparison per event.
// Every method is safe on a nil *Meters.
type Meters struct {
	m        Metrics
	outcomes []string // outcome labels, by outcome
	hits     atomic.Uint64
	routes   *xsync.MapOf[string, *RouteDecisions]
}

// RouteDecisions are one route's decision counters, by outcome.
type RouteDecisions struct {
	Route string
	By    []Counter
	// ByPredicate counts, by outcome, the decisions a host predicate
	// settled (also counted in By).
	ByPredicate []Counter
}

// Start starts o for one Authz. outcomes are the guard outcomes' labels
// by outcome; r's functions are read at collection time (its CacheHits is
// the Meters' own count).
func Start(o Observer, outcomes []string, r Readings) (*Meters, error) {
	ms := &Meters{outcomes: outcomes, routes: xsync.NewMapOf[string, *RouteDecisions]()}
	r.CacheHits = ms.hits.Load
	m, err := o.Start(r)
	if err != nil {
		return nil, err
	}
	ms.m = m
	return ms, nil
}

// Handler is what GET /metrics serves; nil without Meters or when the
// metrics cannot be served.
func (ms *Meters) Handler() http.Handler {
	if ms == nil {
		return nil
	}
	return ms.m.Handler()
}

// Stop ends the measurements.
func (ms *Meters) Stop() {
	if ms != nil {
		ms.m.Stop()
	}
}

// RouteCounters returns the decision counters of route, resolved once.
func (ms *Meters) RouteCounters(route string) *RouteDecisions {
	if rd, ok := ms.routes.Load(route); ok {
		return rd
	}
	rd, _ := ms.routes.LoadOrCompute(route, func() *RouteDecisions {
		rd := &RouteDecisions{Route: route, By: make([]Counter, len(ms.outcomes)), ByPredicate: make([]Counter, len(ms.outcomes))}
		label := route
		if label == "" {
			label = "none" // a guard outside any route (NoRoute, say)
		}
		for o, name := range ms.outcomes {
			rd.By[o] = ms.m.DecisionCounter(label, name)
			rd.ByPredicate[o] = ms.m.PredicateDecisionCounter(label, name)
		}
		return rd
	})
	return rd
}

// SampleWarm reports whether this warm check is timed.
func (ms *Meters) SampleWarm() bool { return ms.hits.Load()&WarmSampleMask == 0 }

// Hit counts a check answered from the cache; start is zero unless it was
// sampled.
func (ms *Meters) Hit(start time.Time) {
	ms.hits.Add(1)
	if !start.IsZero() {
		ms.m.CheckDuration(true, time.Since(start))
	}
}

// Hits is the number of checks answered from the cache.
func (ms *Meters) Hits() uint64 { return ms.hits.Load() }

// Miss counts a check that needed the store, started at start.
func (ms *Meters) Miss(start time.Time) {
	ms.m.CacheMiss()
	ms.m.CheckDuration(false, time.Since(start))
}

// Misses is the metrics layer of the decision cache's miss path: every
// check that needed the store counted and timed, what it wraps (the
// check's span, the store read) included. nil without Meters.
func (ms *Meters) Misses() cache.Layer {
	if ms == nil {
		return nil
	}
	return func(next cache.Miss) cache.Miss {
		return func(ctx context.Context, q cache.Query) (bool, error) {
			start := time.Now()
			ok, err := next(ctx, q)
			ms.Miss(start)
			return ok, err
		}
	}
}

func (ms *Meters) Invalidated(cause InvalidationCause) {
	if ms != nil {
		ms.m.CacheInvalidated(InvalidationLabels[cause])
	}
}

func (ms *Meters) StoreError(op string) {
	if ms != nil {
		ms.m.StoreError(op)
	}
}

func (ms *Meters) Reconnected() {
	if ms != nil {
		ms.m.ListenerReconnected()
	}
}

func (ms *Meters) Lag(n int64) {
	if ms != nil && n > 0 {
		ms.m.RevisionLag(n)
	}
}

func (ms *Meters) Audited(n int) {
	if ms != nil && n > 0 {
		ms.m.AuditRecords(n)
	}
}

func (ms *Meters) AuditSkipped() {
	if ms != nil {
		ms.m.AuditRefusalDropped()
	}
}

func (ms *Meters) DecisionLogSkipped() {
	if ms != nil {
		ms.m.DecisionLogDropped()
	}
}

// Login counts one login attempt; the caller names the provider
// "unknown" unless it is a configured one.
func (ms *Meters) Login(provider, result string) {
	if ms != nil {
		ms.m.Login(provider, result)
	}
}

// Request counts one request to rolegate's own routes.
func (ms *Meters) Request(route string, code int) {
	if route == "" {
		route = "none"
	}
	ms.m.Request(route, code)
}
