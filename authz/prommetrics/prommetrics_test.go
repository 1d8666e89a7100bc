package prommetrics

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/rolegate/rolegate/authz/internal/observe"
)

// names are the sixteen metrics rolegate exports.
var names = []string{
	"rolegate_guard_decisions_total", "rolegate_check_duration_seconds",
	"rolegate_cache_hits_total", "rolegate_cache_misses_total", "rolegate_cache_entries",
	"rolegate_cache_invalidations_total", "rolegate_store_errors_total",
	"rolegate_change_listener_up", "rolegate_change_listener_reconnects_total", "rolegate_revision_lag",
	"rolegate_http_requests_total", "rolegate_logins_total",
	"rolegate_audit_records_total", "rolegate_audit_refusals_dropped_total",
	"rolegate_decision_log_dropped_total", "rolegate_guard_predicate_decisions_total",
}

func readings() observe.Readings {
	return observe.Readings{
		CacheHits: func() uint64 { return 3 }, CacheEntries: func() int { return 2 }, ListenerUp: func() bool { return true },
	}
}

// Every metric is served, one Authz at a time per Observer, and Stop
// takes the collectors off so that a later Start registers again.
func TestObserver(t *testing.T) {
	reg := prometheus.NewRegistry()
	o := New(reg)
	m, err := o.Start(readings())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Start(readings()); err == nil {
		t.Fatal("a second Start while the first is active")
	}
	m.DecisionCounter("/notes/:id", "allowed").Inc()
	m.PredicateDecisionCounter("/notes/:id", "allowed").Inc()
	m.CheckDuration(true, time.Microsecond)
	m.CacheMiss()
	m.CacheInvalidated("flush")
	m.CacheInvalidated("not-a-cause") // ignored
	m.StoreError(observe.StoreOpWrite)
	m.ListenerReconnected()
	m.RevisionLag(2)
	m.Request("/ping", 200)
	m.Login("unknown", "unknown-service")
	m.AuditRecords(2)
	m.AuditRefusalDropped()
	m.DecisionLogDropped()
	w := httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	body := w.Body.String()
	for _, n := range names {
		if !strings.Contains(body, "# TYPE "+n+" ") {
			t.Errorf("%s not served", n)
		}
	}
	if !strings.Contains(body, "rolegate_cache_hits_total 3") || !strings.Contains(body, "rolegate_change_listener_up 1") {
		t.Error("readings not served")
	}
	m.Stop()
	if mfs, _ := reg.Gather(); len(mfs) != 0 {
		t.Errorf("%d families left after Stop", len(mfs))
	}
	m, err = o.Start(readings())
	if err != nil {
		t.Fatal("Start after Stop:", err)
	}
	m.Stop()
}

// A registerer that cannot gather registers but cannot serve; no
// registerer: a registry of its own, with the Go and process collectors.
func TestObserverRegistries(t *testing.T) {
	m, err := New(struct{ prometheus.Registerer }{prometheus.NewRegistry()}).Start(readings())
	if err != nil {
		t.Fatal(err)
	}
	if m.Handler() != nil {
		t.Error("a Registerer that cannot gather is served")
	}
	m.Stop()
	m, err = New(nil).Start(readings())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	w := httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(w.Body.String(), "go_goroutines") {
		t.Error("own registry without the Go collector")
	}
}

// With a read replica the standby's counts are served, the fallbacks by
// reason; without one, neither metric exists.
func TestObserverStandby(t *testing.T) {
	reg := prometheus.NewRegistry()
	r := readings()
	r.StandbyReads = func() uint64 { return 41 }
	r.StandbyFallbacks = func(why observe.Fallback) uint64 { return uint64(why) + 1 }
	m, err := New(reg).Start(r)
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	body := w.Body.String()
	for _, want := range []string{"rolegate_standby_reads_total 41", `rolegate_standby_fallbacks_total{reason="behind"} 1`,
		`rolegate_standby_fallbacks_total{reason="down"} 2`, `rolegate_standby_fallbacks_total{reason="busy"} 3`,
		`rolegate_standby_fallbacks_total{reason="failed"} 4`} {
		if !strings.Contains(body, want) {
			t.Errorf("%q not served:\n%s", want, body)
		}
	}
	m.Stop()
	m, err = New(reg).Start(readings())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	w = httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	if strings.Contains(w.Body.String(), "rolegate_standby") {
		t.Error("standby metrics without a standby")
	}
}
