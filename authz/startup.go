package authz

import (
	"context"
	"time"

	"github.com/rolegate/rolegate/storage"
)

// logStartup writes the one line an operator needs to see that rolegate
// opened the store they meant: which store (never a password), how many
// migrations this start applied, and whether the PostgreSQL change
// listener is live. It waits for the listener's first attempt, so that
// "live" is true when Open returns.
func (az *Authz) logStartup(ctx context.Context) {
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	store := storage.Describe(dctx, az.db, storage.IsPostgres(az.db))
	cancel()
	listener := "none (SQLite: one process, revision checks only)"
	if az.listening != nil {
		// Listen itself gives up after 10 s; the margin covers scheduling.
		select {
		case err := <-az.listening:
			if err == nil {
				listener = "live"
			} else {
				listener = "not live yet, retrying: " + storage.Classify(err).Error()
			}
		case <-ctx.Done():
			listener = "not live yet (Open's context ended first)"
		case <-time.After(12 * time.Second):
			listener = "not live yet, retrying"
		}
	}
	az.log.Info("rolegate opened", "store", store, "migrations_applied", az.migrated, "listener", listener)
}
