package authz

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz/internal/clock"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

var boundsT0 = time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)

// openClocked opens rolegate on target counting bounds by a fake clock,
// with the background expiry slowed down so that nothing is written
// unless the test writes (tests of the expiry shorten it instead).
// forEachClockedStoreEncrypted runs fn on SQLite and PostgreSQL, names
// plain and encrypted, each store on a fake clock at boundsT0.
func forEachClockedStoreEncrypted(t *testing.T, fn func(t *testing.T, az *Authz, clk *clock.Fake)) {
	eachEncryption(t, func(t *testing.T, target storagetest.Target, _ bool, encryption func(*Config)) {
		clk := clock.NewFake(boundsT0)
		fn(t, openClocked(t, target, clk, encryption), clk)
	})
}

func openClocked(t *testing.T, target storagetest.Target, clk clock.Clock, mod func(*Config)) *Authz {
	return openTarget(t, target, func(c *Config) {
		c.clock = clk
		c.expiryEvery = time.Hour
		if mod != nil {
			mod(c)
		}
	})
}

// boundedCase is one kind of bounded row and the check that sees it.
type boundedCase struct {
	name string
	// add writes the bounded row (alice's membership, or the grant).
	add func(ctx context.Context, c *Client, opts ...AddOption) (bool, error)
	// scope is where the check asks.
	scope string
}

func boundedCases() []boundedCase {
	return []boundedCase{
		{name: "global membership", add: func(ctx context.Context, c *Client, opts ...AddOption) (bool, error) {
			return c.AddMembership(ctx, "alice", "editor", opts...)
		}},
		{name: "scoped membership", scope: "org-1", add: func(ctx context.Context, c *Client, opts ...AddOption) (bool, error) {
			return c.AddMembershipIn(ctx, "org-1", "alice", "editor", opts...)
		}},
		// editor inherits writer, and writer's grant is the bounded row:
		// the bound reaches alice's check through inheritance.
		{name: "inherited grant", add: func(ctx context.Context, c *Client, opts ...AddOption) (bool, error) {
			return c.AddPermission(ctx, "writer", "edit", opts...)
		}},
		{name: "inherited grant in a scope", scope: "org-1", add: func(ctx context.Context, c *Client, opts ...AddOption) (bool, error) {
			return c.AddPermission(ctx, "writer", "edit", opts...)
		}},
	}
}

// The clock moves and nothing is written: a membership with expires_at
// allows before it and refuses from it on, one with starts_at the other
// way round, and a grant likewise, inherited through a role of alice's;
// globally and in a scope; on both stores. The revision does not move, so
// no write (not even the expiry's) stands between the two answers, and
// the checks on each side are answered from the cache.
func TestBoundsKeepTimeWithNoWrite(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		for _, tc := range boundedCases() {
			for _, kind := range []string{"expires_at", "starts_at"} {
				t.Run(tc.name+" "+kind, func(t *testing.T) {
					ctx := context.Background()
					clk := clock.NewFake(boundsT0)
					az := openClocked(t, freshTarget(t, target), clk, nil)
					c := mustClient(t, az, newKey())
					for _, r := range []string{"editor", "writer"} {
						mustDo(t)(c.AddRole(ctx, r, ""))
					}
					mustDo(t)(c.AddInheritance(ctx, "editor", "writer"))
					mustDo(t)(c.AddPermission(ctx, "writer", "edit"))
					if tc.scope != "" && tc.name != "scoped membership" {
						mustDo(t)(c.AddMembershipIn(ctx, tc.scope, "alice", "editor"))
					} else if tc.scope == "" {
						mustDo(t)(c.AddMembership(ctx, "alice", "editor"))
					}
					at := boundsT0.Add(2 * time.Hour)
					opt, before := ExpiresAt(at), true
					if kind == "starts_at" {
						opt, before = StartsAt(at), false
					}
					if created, err := tc.add(ctx, c, opt); err != nil || created != (tc.name == "scoped membership") {
						t.Fatalf("bounded add = %v, %v", created, err)
					}
					rev, err := c.Revision(ctx)
					if err != nil {
						t.Fatal(err)
					}
					check := func(want bool, when string) {
						t.Helper()
						var got bool
						var err error
						if tc.scope == "" {
							got, err = c.UserHasPermission(ctx, "alice", "edit")
						} else {
							got, err = c.UserHasPermissionIn(ctx, tc.scope, "alice", "edit")
						}
						if err != nil || got != want {
							t.Fatalf("%s: alice may edit = %v, %v; want %v", when, got, err, want)
						}
						if ok, warm := c.cache.Cached("alice", tc.scope, "edit"); !warm || ok != want {
							t.Fatalf("%s: the cache answers %v (warm %v); want a warm %v", when, ok, warm, want)
						}
					}
					check(before, "an hour before")
					clk.Advance(time.Hour + 59*time.Minute + 59*time.Second)
					check(before, "a second before")
					clk.Advance(time.Second)
					check(!before, "at the boundary")
					clk.Advance(time.Hour)
					check(!before, "an hour after")
					if now, err := c.Revision(ctx); err != nil || now != rev {
						t.Fatalf("the revision moved from %s to %s (%v): something was written", rev, now, err)
					}
				})
			}
		}
	})
}

// Memberships have their roles by the same clock: has_membership and the
// lists of what a user holds follow the window too.
func TestBoundedMembershipListsAndRole(t *testing.T) {
	forEachStoreClocked(t, func(t *testing.T, az *Authz, clk *clock.Fake) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		mustDo(t)(c.AddRole(ctx, "editor", ""))
		mustDo(t)(c.AddPermission(ctx, "editor", "edit"))
		mustDo(t)(c.AddMembership(ctx, "alice", "editor", StartsAt(boundsT0.Add(time.Hour)), ExpiresAt(boundsT0.Add(2*time.Hour))))
		state := func() string {
			t.Helper()
			role, err1 := c.UserHasRole(ctx, "alice", "editor")
			member, err2 := c.HasMembership(ctx, "alice", "editor")
			perms, err3 := c.GetUserPermissions(ctx, "alice")
			users, err4 := c.WhichUsersCan(ctx, "edit")
			if err := errors.Join(err1, err2, err3, err4); err != nil {
				t.Fatal(err)
			}
			return fmtState(role, member, perms, users)
		}
		for _, step := range []struct {
			at   time.Duration
			want string
		}{
			{0, "false false [] []"},
			{time.Hour, "true true [edit] [alice]"},
			{2 * time.Hour, "false false [] []"},
		} {
			clk.Set(boundsT0.Add(step.at))
			if got := state(); got != step.want {
				t.Fatalf("at +%v: %s; want %s", step.at, got, step.want)
			}
		}
	})
}

func fmtState(role, member bool, perms, users []string) string {
	return fmtBool(role) + " " + fmtBool(member) + " " + fmtList(perms) + " " + fmtList(users)
}

func fmtBool(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func fmtList(v []string) string {
	s := "["
	for i, e := range v {
		if i > 0 {
			s += " "
		}
		s += e
	}
	return s + "]"
}

// The add's rules: starts_at not before expires_at is ErrBadRequest, an
// expires_at already past ErrAlreadyExpired; nothing is stored. An add
// sets the bounds to exactly what it names: again without options, the
// membership holds for good, and reports that it existed.
func TestBoundsRules(t *testing.T) {
	forEachStoreClocked(t, func(t *testing.T, az *Authz, clk *clock.Fake) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		mustDo(t)(c.AddRole(ctx, "editor", ""))
		mustDo(t)(c.AddPermission(ctx, "editor", "edit"))
		at := boundsT0.Add(time.Hour)
		if _, err := c.AddMembership(ctx, "alice", "editor", StartsAt(at), ExpiresAt(at)); !errors.Is(err, ErrInvalidName) && !errors.Is(err, errBadRequest) {
			t.Fatalf("starts_at = expires_at: %v, want a bad request", err)
		}
		if _, err := c.AddPermission(ctx, "editor", "read", ExpiresAt(boundsT0)); !errors.Is(err, ErrAlreadyExpired) {
			t.Fatalf("expires_at now: %v, want ErrAlreadyExpired", err)
		}
		if ok, _ := c.HasPermission(ctx, "editor", "read"); ok {
			t.Fatal("a refused grant was stored")
		}
		if created, err := c.AddMembership(ctx, "alice", "editor", ExpiresAt(at)); !created || err != nil {
			t.Fatalf("bounded add = %v, %v", created, err)
		}
		if created, err := c.AddMembership(ctx, "alice", "editor"); created || err != nil {
			t.Fatalf("unbounded add again = %v, %v; want existed", created, err)
		}
		clk.Advance(2 * time.Hour)
		if ok, err := c.UserHasPermission(ctx, "alice", "edit"); !ok || err != nil {
			t.Fatalf("after the old expiry: %v, %v; the add without bounds should have removed it", ok, err)
		}
		recs, err := c.AuditRecords(ctx, "add_membership", 0, 10)
		// Newest first: the add without bounds changed the row's bounds,
		// the bounded add created it, the refused one is recorded as such.
		if err != nil || len(recs) != 3 || recs[0].Outcome != "changed" || recs[1].Outcome != storage.AuditCreated ||
			recs[1].Resource != "membership:alice/editor until 2030-01-07T10:00:00Z" || recs[2].Outcome != "refused: malformed request" {
			t.Fatalf("audit of the two adds: %+v, %v", recs, err)
		}
	})
}

// forEachStoreClocked runs fn on both stores, counting bounds by a fake
// clock at boundsT0.
func forEachStoreClocked(t *testing.T, fn func(t *testing.T, az *Authz, clk *clock.Fake)) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		clk := clock.NewFake(boundsT0)
		fn(t, openClocked(t, target, clk, nil), clk)
	})
}

func mustDo(t *testing.T) func(bool, error) {
	return func(_ bool, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}
