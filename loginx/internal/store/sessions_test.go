package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx/internal/store"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestLoginSessionLifecycle: a session starts only for an active user; its
// state says whether it is live; its revocation lives as long as its last
// token (ExpiresAt, raised by each refresh), and only a session older than
// the column falls back to the caller's expiry.
func TestLoginSessionLifecycle(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		u := &store.User{Service: "idp", Subject: "s1"}
		if _, err := store.UpsertUser(ctx, db, u, 1000, func() (string, string, error) { return "u1", "subject", nil }); err != nil {
			t.Fatal(err)
		}
		start := func(id string, exp int64) error {
			return store.CreateSession(ctx, db, &store.Session{ID: id, UserID: u.ID, CreatedAt: 1000, ExpiresAt: exp},
				&store.RefreshToken{Hash: "h-" + id, ExpiresAt: 1 << 50})
		}
		if err := start("a", 50_000); err != nil {
			t.Fatal(err)
		}
		if st, err := store.SessionStateByID(ctx, db, "a"); err != nil || !st.Live || st.UserID != u.ID || st.ExpiresAt != 50_000 {
			t.Fatalf("state %+v %v", st, err)
		}
		if _, err := store.SessionStateByID(ctx, db, "never"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("unknown session: %v", err)
		}
		// A refresh raises the expiry; the revocation (with a shorter
		// fallback, as from a replica with a shorter lifetime) keeps it.
		if _, err := store.RotateRefresh(ctx, db, "h-a", &store.RefreshToken{Hash: "h-a2", ExpiresAt: 1 << 50}, 2000, 90_000, 3000); err != nil {
			t.Fatal(err)
		}
		if ok, err := store.RevokeSession(ctx, db, "a", 4000, 5000); err != nil || !ok {
			t.Fatal(ok, err)
		}
		revs, err := store.Revocations(ctx, db, 0, 1<<60, 4000)
		if err != nil || len(revs) != 1 || revs[0].ExpiresAt != 90_000 {
			t.Fatalf("revocations %+v %v, want one expiring at 90000", revs, err)
		}
		if st, _ := store.SessionStateByID(ctx, db, "a"); st.Live {
			t.Fatal("revoked session is live")
		}
		// A session from before the column: the fallback.
		if err := start("old", 0); err != nil {
			t.Fatal(err)
		}
		if ok, err := store.RevokeSession(ctx, db, "old", 4000, 7000); err != nil || !ok {
			t.Fatal(ok, err)
		}
		revs, _ = store.Revocations(ctx, db, revs[0].ID, 1<<60, 4000)
		if len(revs) != 1 || revs[0].ExpiresAt != 7000 {
			t.Fatalf("revocations %+v, want one expiring at 7000", revs)
		}
		// Deactivated: every session revoked, and none can start.
		if err := start("b", 50_000); err != nil {
			t.Fatal(err)
		}
		if err := store.SetUserActive(ctx, db, u.ID, false, 5000, 6000); err != nil {
			t.Fatal(err)
		}
		if st, _ := store.SessionStateByID(ctx, db, "b"); st.Live {
			t.Fatal("session of a deactivated user is live")
		}
		if err := start("c", 50_000); !errors.Is(err, store.ErrInactive) {
			t.Fatalf("session for an inactive user: %v", err)
		}
		if _, err := store.SessionStateByID(ctx, db, "c"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("refused session stored: %v", err)
		}
	})
}
