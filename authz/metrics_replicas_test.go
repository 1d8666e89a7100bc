package authz

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/rolegate/rolegate/authz/prommetrics"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// The PostgreSQL metrics: the listener is up, a killed listener
// connection counts a reconnect and comes back up, and a write on
// another replica shows as revision lag and a replica_change
// invalidation on this one.
func TestMetricsReplicas(t *testing.T) {
	target := storagetest.PostgreSQL(t)
	appName := "rolegate_test_" + strings.ReplaceAll(newKey()[:8], "-", "")
	named := target
	named.Config.PostgreSQLURL += "&application_name=" + appName
	reg := prometheus.NewRegistry()
	slow := func(cfg *Config) { cfg.RevisionCheckInterval = time.Minute }
	a := openTarget(t, named, func(cfg *Config) { slow(cfg); cfg.Observer = prommetrics.New(reg) })
	b := openTarget(t, target, slow)
	if !a.feed.Live() || gatherTotals(t, reg)["rolegate_change_listener_up"] != 1 {
		t.Fatal("rolegate_change_listener_up is not 1 after Open")
	}
	ctx := context.Background()
	key := newKey()
	ca, cb := mustClient(t, a, key), mustClient(t, b, key)
	wrote(t)(cb.AddRole(ctx, "editor", ""))
	wrote(t)(cb.AddPermission(ctx, "editor", "edit"))
	wrote(t)(cb.AddMembership(ctx, "sara", "editor"))
	eventually(t, 5*time.Second, "a sees the grant", func() bool {
		ok, _ := ca.UserHasPermission(ctx, "sara", "edit")
		return ok
	})
	// Wait until a has taken in every notification of b's writes so far,
	// with sara cached, so the revoke below is what a checks next.
	eventually(t, 5*time.Second, "a caught up with sara cached", func() bool {
		ca.UserHasPermission(ctx, "sara", "edit")
		a.feed.Check(ctx, nil) // what the poller would do, now
		revs, err := storage.Revisions(ctx, a.db, []string{ca.scope.NS})
		return err == nil && ca.follow.Known() == revs[ca.scope.NS] && ca.cache.Len() > 0
	})
	lagBefore := histogramCount(t, reg, "rolegate_revision_lag")
	replicaBefore := gathered(t, reg, "rolegate_cache_invalidations_total", "cause", "replica_change")
	wrote(t)(cb.DelMembership(ctx, "sara", "editor"))
	eventually(t, 5*time.Second, "a sees the revoke", func() bool {
		ok, err := ca.UserHasPermission(ctx, "sara", "edit")
		return err == nil && !ok
	})
	// The check may have read the store before the notification came:
	// wait for it.
	eventually(t, 5*time.Second, "revision lag observed and a replica_change invalidation counted", func() bool {
		return histogramCount(t, reg, "rolegate_revision_lag") > lagBefore &&
			gathered(t, reg, "rolegate_cache_invalidations_total", "cause", "replica_change") >= replicaBefore+1
	})

	reconnects := gathered(t, reg, "rolegate_change_listener_reconnects_total")
	killListener(t, b.db, appName)
	eventually(t, 10*time.Second, "a reconnect counted and the listener up again", func() bool {
		return gathered(t, reg, "rolegate_change_listener_reconnects_total") == reconnects+1 && gatherTotals(t, reg)["rolegate_change_listener_up"] == 1
	})
}

// histogramCount is the sample count of a histogram without labels.
func histogramCount(t *testing.T, g prometheus.Gatherer, name string) uint64 {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf.GetMetric()[0].GetHistogram().GetSampleCount()
		}
	}
	t.Fatalf("%s not gathered", name)
	return 0
}
