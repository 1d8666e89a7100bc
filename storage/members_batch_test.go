package storage_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestMembershipsAdd: memberships added together report as one by one
// would (a membership given twice is new once; one that exists is not
// new, and has its time bounds cleared as AddMembership clears them),
// global and scoped alike, past one statement's thousand; a role that
// does not exist is ErrRoleNotFound; and a key rotation (two stored
// forms of a name) is not a bulk case.
func TestMembershipsAdd(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := storage.Scope{NS: storage.NamespaceOf("k1")}
		if _, err := storage.AddRole(ctx, db, s, "r", ""); err != nil {
			t.Fatal(err)
		}
		bounded := storage.TimeBounds{Expires: time.Now().Add(time.Hour).UTC().Truncate(time.Second)}
		if _, err := storage.PutMembership(ctx, db, s, "s1", "bob", "r", bounded); err != nil {
			t.Fatal(err)
		}
		if _, err := storage.AddMembership(ctx, db, s, "", "carol", "r"); err != nil {
			t.Fatal(err)
		}
		ms := storage.Memberships{{User: "alice", Role: "r"}, {User: "alice", Role: "r"}, {Scope: "s1", User: "bob", Role: "r"}, {User: "carol", Role: "r"}, {Scope: "s2", User: "alice", Role: "r"}}
		for i := range 1500 {
			ms = append(ms, storage.Membership{Scope: "s" + strconv.Itoa(i%3), User: "u" + strconv.Itoa(i), Role: "r"})
		}
		if !ms.Bulk(s) {
			t.Fatal("not bulk without a key rotation")
		}
		created, unbound, err := ms.Add(ctx, db, s)
		if err != nil {
			t.Fatal(err)
		}
		if want := []bool{true, false, false, false, true}; !slices.Equal(created[:5], want) || slices.Contains(created[5:], false) {
			t.Errorf("created = %v..., want %v and the rest", created[:5], want)
		}
		if want := []bool{false, false, true, false, false}; !slices.Equal(unbound[:5], want) || slices.Contains(unbound[5:], true) {
			t.Errorf("unbound = %v..., want %v", unbound[:5], want)
		}
		var n int
		if err := db.NewRaw("SELECT count(*) FROM rolegate_scoped_memberships WHERE ns = ? AND user_name = 'bob' AND expires_at IS NULL", s.NS).Scan(ctx, &n); err != nil || n != 1 {
			t.Errorf("bob's bounds not cleared: %d %v", n, err)
		}
		if ok, err := storage.HasMembership(ctx, db, s, "s2", "u1499", "r"); err != nil || !ok {
			t.Errorf("u1499 in s2: %v %v", ok, err)
		}
		if _, _, err := (storage.Memberships{{User: "x", Role: "ghost"}}).Add(ctx, db, s); !errors.Is(err, storage.ErrRoleNotFound) {
			t.Errorf("a role that does not exist: %v", err)
		}
		if (storage.Memberships{}).Bulk(storage.Scope{NS: s.NS, Users: rotatingCodec{}}) {
			t.Error("bulk while a key rotates")
		}
	})
}
