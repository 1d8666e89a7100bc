package authz

import (
	"context"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// Requests with ever new keys cannot grow the client table without bound;
// a handle dropped from it stays correct, reading the store.
func TestClientHandlesAreBounded(t *testing.T) {
	host := newKey()
	az := openTarget(t, storagetest.SQLite(t), func(cfg *Config) {
		cfg.MaxClients = 50
		cfg.ClientKey = host
	})
	ctx := context.Background()
	firstKey := newKey()
	first := mustClient(t, az, firstKey)
	first.AddRole(ctx, "r", "")
	first.AddPermission(ctx, "r", "p")
	first.AddMembership(ctx, "sara", "r")
	first.used.Store(0) // the least recently used of all
	for range 500 {
		mustClient(t, az, newKey())
	}
	if _, ok := az.clients.Load(firstKey); ok {
		t.Fatal("the least recently used handle was not evicted")
	}
	if n := az.clients.Size(); n > 51 {
		t.Fatalf("%d client handles kept with a bound of 50", n)
	}
	if _, ok := az.clients.Load(host); !ok {
		t.Fatal("the host client was evicted")
	}
	// The dropped handle still answers right, and caches nothing.
	if ok, err := first.UserHasPermission(ctx, "sara", "p"); !ok || err != nil {
		t.Fatalf("dropped handle: %v, %v", ok, err)
	}
	first.DelMembership(ctx, "sara", "r")
	if ok, _ := first.UserHasPermission(ctx, "sara", "p"); ok {
		t.Fatal("dropped handle answered from a stale cache")
	}
	if first.cache.Len() != 0 {
		t.Fatal("dropped handle caches")
	}
}
