package authz

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/rolegate/rolegate/authz/prommetrics"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// The observability settings parse from the environment, default to off,
// and refuse what they do not know, all at once.
func TestObservabilityConfig(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	c, err := ConfigFromLookup(env(map[string]string{
		"AUTH_ENABLE_METRICS": "true", "AUTH_DECISION_LOG": "denied",
		"AUTH_DECISION_LOG_SAMPLE": "0.25", "AUTH_DECISION_AUDIT": "denied", "AUTH_DECISION_LOG_PER_SECOND": "7",
	}))
	if err != nil || !c.EnableMetrics || c.DecisionLog != "denied" || c.DecisionLogSample != 0.25 || c.DecisionAudit != "denied" ||
		c.DecisionLogPerSecond != 7 {
		t.Fatalf("config %+v, %v", c, err)
	}
	d := Config{}.withDefaults()
	if d.EnableMetrics || d.Observer != nil || d.DecisionLog != "off" || d.DecisionLogSample != 1 || d.DecisionAudit != "off" ||
		d.DecisionLogPerSecond != 100 {
		t.Errorf("defaults: metrics %v, log %q at %v, audit %q", d.EnableMetrics, d.DecisionLog, d.DecisionLogSample, d.DecisionAudit)
	}
	_, err = ConfigFromLookup(env(map[string]string{
		"AUTH_ENABLE_METRICS": "yes please", "AUTH_DECISION_LOG": "some",
		"AUTH_DECISION_LOG_SAMPLE": "0", "AUTH_DECISION_AUDIT": "all", "AUTH_DECISION_LOG_PER_SECOND": "0",
	}))
	var ce *ConfigError
	if !errors.As(err, &ce) || len(ce.Problems) != 5 {
		t.Fatalf("want 5 problems, got %v", err)
	}
	for _, v := range []string{"AUTH_ENABLE_METRICS", "AUTH_DECISION_LOG=", "AUTH_DECISION_LOG_SAMPLE", "AUTH_DECISION_AUDIT", "AUTH_DECISION_LOG_PER_SECOND"} {
		if !strings.Contains(err.Error(), v) {
			t.Errorf("%v does not name %s", err, v)
		}
	}
	for _, v := range []string{"AUTH_ENABLE_METRICS", "AUTH_DECISION_LOG", "AUTH_DECISION_LOG_SAMPLE", "AUTH_DECISION_AUDIT", "AUTH_DECISION_LOG_PER_SECOND"} {
		if !knownVariable(v) {
			t.Errorf("%s is not a known variable", v)
		}
	}
}

// notGatherer is a Registerer that cannot be scraped.
type notGatherer struct{ prometheus.Registerer }

// Metrics register on the host's registerer only when asked, come off it
// at Close (so a second Open can register again), GET /metrics needs a
// Gatherer to serve, and AUTH_ENABLE_METRICS needs an Observer.
func TestMetricsRegistration(t *testing.T) {
	target := storagetest.SQLite(t)
	reg := prometheus.NewRegistry()
	az := openTarget(t, target, nil)
	if az.metrics != nil {
		t.Fatal("metrics on without a registerer or AUTH_ENABLE_METRICS")
	}
	with := func(cfg *Config) { cfg.Observer = prommetrics.New(reg) }
	a := openTarget(t, target, with)
	if mfs, _ := reg.Gather(); len(mfs) == 0 {
		t.Fatal("nothing registered on the host's registry")
	}
	cfg := configFor(target)
	with(&cfg)
	if b, err := Open(context.Background(), cfg); err == nil {
		b.Close()
		t.Fatal("a second Authz registered the same metrics on one registry")
	}
	a.Close()
	b := openTarget(t, target, with) // registers again once a is closed
	b.Close()
	if mfs, _ := reg.Gather(); len(mfs) != 0 {
		t.Errorf("%d families left on the registry after Close", len(mfs))
	}
	shared := prommetrics.New(prometheus.NewRegistry())
	c := openTarget(t, target, func(cfg *Config) { cfg.Observer = shared })
	cfg.Observer = shared
	if b, err := Open(context.Background(), cfg); err == nil {
		b.Close()
		t.Fatal("a second Authz started an Observer already in use")
	}
	c.Close()
	cfg.Observer = prommetrics.New(notGatherer{prometheus.NewRegistry()})
	cfg.EnableMetrics = true
	if b, err := Open(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "serve") {
		if err == nil {
			b.Close()
		}
		t.Errorf("EnableMetrics with a registerer that cannot gather: %v", err)
	}
	// The setting is read before the host sets its Observer: Validate
	// takes it, Open refuses it and says what to import.
	cfg.Observer = nil
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if b, err := Open(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "prommetrics") {
		if err == nil {
			b.Close()
		}
		t.Errorf("Open with EnableMetrics and no Observer: %v", err)
	}
}
