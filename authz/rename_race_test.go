package authz

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestRenameRacingGrants: two Authz values on one store (two replicas; on
// SQLite two handles on one file) race, 40 rounds over REST: one renames
// old to new (every other round with ?merge=true) while the other adds
// memberships of new in the roles old holds. On PostgreSQL the rename's check that new holds nothing
// and its UPDATE are two statements, so a membership of new committed
// between them met the UPDATE as a duplicate key: 18 to 24 rounds of 40
// answered 500. Every answer is now one of the contract's: the rename 200
// or 409 (new gained memberships first) without merge, 200 with it (each
// retry followed a committed membership of new, of which there are four),
// each add 201 or 200; never 500. The outcome checks out against the serial orders: after
// a 200 the memberships of old are all new's, after a 409 old kept them
// all.
func TestRenameRacingGrants(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		key := newKey()
		cfg := func(c *Config) {
			c.ClientKey = key
			c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
		}
		a, b := openTarget(t, target, cfg), openTarget(t, target, cfg)
		ra, rb := newTestRouter(t, a, ""), newTestRouter(t, b, "")
		ctx := context.Background()
		host := mustClient(t, a, key)
		const roles = 4
		for i := range roles {
			mustOK(t)(host.AddRole(ctx, fmt.Sprintf("r%d", i), ""))
		}
		statuses := map[string]map[int]int{"rename": {}, "rename?merge": {}, "add": {}}
		for round := range 40 {
			old, next := fmt.Sprintf("old-%d", round), fmt.Sprintf("new-%d", round)
			for i := range roles {
				mustOK(t)(host.AddMembership(ctx, old, fmt.Sprintf("r%d", i)))
			}
			var wg sync.WaitGroup
			op, path := "rename", "/api/user/"+old+"/rename/"+next
			if round%2 == 1 {
				op, path = "rename?merge", path+"?merge=true"
			}
			var renamed int
			adds := make([]int, roles)
			wg.Add(1 + roles)
			go func() {
				defer wg.Done()
				renamed = performRequest(ra, http.MethodPost, path, key, nil).Code
			}()
			for i := range roles {
				go func() {
					defer wg.Done()
					adds[i] = performRequest(rb, http.MethodPost, fmt.Sprintf("/api/membership/%s/r%d", next, i), key, nil).Code
				}()
			}
			wg.Wait()
			statuses[op][renamed]++
			for _, c := range adds {
				statuses["add"][c]++
			}
			oldRoles, err := host.GetUserRoles(ctx, old)
			if err != nil {
				t.Fatal(err)
			}
			newRoles, err := host.GetUserRoles(ctx, next)
			if err != nil {
				t.Fatal(err)
			}
			switch renamed {
			case http.StatusOK:
				if len(oldRoles) != 0 || len(newRoles) != roles {
					t.Errorf("round %d: renamed (200), yet %s holds %v and %s %v", round, old, oldRoles, next, newRoles)
				}
			case http.StatusConflict:
				if len(oldRoles) != roles || len(newRoles) != roles {
					t.Errorf("round %d: refused (409), yet %s holds %v and %s %v", round, old, oldRoles, next, newRoles)
				}
			}
		}
		t.Logf("%s: 40 rounds: rename statuses %v, with merge %v, add statuses %v", target.Name, statuses["rename"], statuses["rename?merge"], statuses["add"])
		for op, m := range statuses {
			for code, n := range m {
				if code >= 500 || (op == "rename" && code != http.StatusOK && code != http.StatusConflict) ||
					(op == "rename?merge" && code != http.StatusOK) ||
					(op == "add" && code != http.StatusCreated && code != http.StatusOK) {
					t.Errorf("%s answered %d in %d of 40 rounds", op, code, n)
				}
			}
		}
	})
}
