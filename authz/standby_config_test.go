package authz

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/authz/internal/observe"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// AUTH_POSTGRESQL_READ_URL must be a postgres:// URL, and its primary
// PostgreSQL: a SQLite store has no standby. An unreachable standby does
// not stop Open: reads go to the primary until it answers.
func TestReadReplicaConfig(t *testing.T) {
	_, err := ConfigFromLookup(func(k string) string {
		return map[string]string{"AUTH_POSTGRESQL_READ_URL": "mysql://x"}[k]
	})
	if err == nil || !strings.Contains(err.Error(), "AUTH_POSTGRESQL_READ_URL is not a postgres:// URL") {
		t.Fatalf("a mysql:// read URL: %v", err)
	}
	cfg := configFor(storagetest.SQLite(t))
	cfg.PostgreSQLReadURL = "postgres://postgres@127.0.0.1:1/x?sslmode=disable"
	if az, err := Open(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "the primary store is not PostgreSQL") {
		if az != nil {
			az.Close()
		}
		t.Fatalf("a read URL beside SQLite: %v", err)
	}
	target := storagetest.PostgreSQL(t)
	var log syncBuffer
	az := openTarget(t, target, func(c *Config) {
		c.PostgreSQLReadURL = "postgres://postgres@127.0.0.1:1/x?sslmode=disable" // nothing listens there
		c.Logger = slog.New(slog.NewTextHandler(&log, nil))
	})
	if !strings.Contains(log.String(), "not answering yet") {
		t.Errorf("the startup line does not say the standby is not answering: %s", log.String())
	}
	c := mustClient(t, az, newKey())
	ctx := context.Background()
	if _, err := c.AddRole(ctx, "editor", ""); err != nil {
		t.Fatal(err)
	}
	if roles, err := c.Roles(ctx); err != nil || len(roles) != 1 {
		t.Fatalf("a list with the standby down: %v %v", roles, err)
	}
	if az.reader.Served() != 0 || az.reader.FellBack(observe.FallbackDown)+az.reader.FellBack(observe.FallbackFailed) == 0 {
		t.Fatalf("standby down: served %d", az.reader.Served())
	}
}
