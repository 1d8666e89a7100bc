package authz

import (
	"context"
	"log/slog"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/rolegate/rolegate/authz/prommetrics"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// BenchmarkWarmCheckMetrics is the warm check alone (no router), with
// metrics off and on: what the hit counter and the 1-in-64 timing cost.
func BenchmarkWarmCheckMetrics(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "metrics=off"
		if on {
			name = "metrics=on"
		}
		b.Run(name, func(b *testing.B) {
			az := openTarget(b, storagetest.SQLite(b), func(cfg *Config) {
				cfg.Logger = slog.New(slog.DiscardHandler)
				if on {
					cfg.Observer = prommetrics.New(prometheus.NewRegistry())
				}
			})
			ctx := context.Background()
			c := mustClient(b, az, newKey())
			c.AddRole(ctx, "editor", "")
			c.AddPermission(ctx, "editor", "edit")
			c.AddMembership(ctx, "sara", "editor")
			if ok, err := c.UserHasPermission(ctx, "sara", "edit"); !ok || err != nil {
				b.Fatal(ok, err)
			}
			b.ReportAllocs()
			for b.Loop() {
				c.UserHasPermission(ctx, "sara", "edit")
			}
		})
	}
}
