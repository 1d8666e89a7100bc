package authz

import (
	"context"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestWarmCheckAllocatesNothing: normalising names on the warm path (NFC
// names, ASCII or not) allocates nothing.
func TestWarmCheckAllocatesNothing(t *testing.T) {
	az := openTarget(t, storagetest.SQLite(t), nil)
	cl := mustClient(t, az, newKey())
	ctx := context.Background()
	for _, n := range []string{"editor", nfcRole} {
		mustOK(t)(cl.AddRole(ctx, n, ""))
		mustOK(t)(cl.AddPermission(ctx, n, n+"-perm"))
		mustOK(t)(cl.AddMembership(ctx, n+"-user", n))
		if ok, err := cl.UserHasPermission(ctx, n+"-user", n+"-perm"); !ok || err != nil {
			t.Fatalf("%s: %v %v", n, ok, err)
		}
		user, perm := n+"-user", n+"-perm"
		if a := testing.AllocsPerRun(1000, func() { _, _ = cl.UserHasPermission(ctx, user, perm) }); a != 0 {
			t.Errorf("warm UserHasPermission(%q) allocates %v times", user, a)
		}
	}
}
