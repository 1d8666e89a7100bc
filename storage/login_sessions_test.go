package storage_test

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestLoginSessionLifecycle: a session starts only for an active user; its
// state says whether it is live; its revocation lives as long as its last
// token (ExpiresAt, raised by each refresh), and only a session older than
// the column falls back to the caller's expiry.
func TestLoginSessionLifecycle(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		u := &storage.LoginUser{Service: "idp", Subject: "s1"}
		if _, err := storage.UpsertLoginUser(ctx, db, u, 1000, func() (string, string, error) { return "u1", "subject", nil }); err != nil {
			t.Fatal(err)
		}
		start := func(id string, exp int64) error {
			return storage.CreateLoginSession(ctx, db, &storage.LoginSession{ID: id, UserID: u.ID, CreatedAt: 1000, ExpiresAt: exp},
				&storage.LoginRefreshToken{Hash: "h-" + id, ExpiresAt: 1 << 50})
		}
		if err := start("a", 50_000); err != nil {
			t.Fatal(err)
		}
		if st, err := storage.LoginSessionStateByID(ctx, db, "a"); err != nil || !st.Live || st.UserID != u.ID || st.ExpiresAt != 50_000 {
			t.Fatalf("state %+v %v", st, err)
		}
		if _, err := storage.LoginSessionStateByID(ctx, db, "never"); !errors.Is(err, storage.ErrLoginNotFound) {
			t.Fatalf("unknown session: %v", err)
		}
		// A refresh raises the expiry; the revocation (with a shorter
		// fallback, as from a replica with a shorter lifetime) keeps it.
		if _, err := storage.RotateLoginRefresh(ctx, db, "h-a", &storage.LoginRefreshToken{Hash: "h-a2", ExpiresAt: 1 << 50}, 2000, 90_000, 3000); err != nil {
			t.Fatal(err)
		}
		if ok, err := storage.RevokeLoginSession(ctx, db, "a", 4000, 5000); err != nil || !ok {
			t.Fatal(ok, err)
		}
		revs, err := storage.LoginRevocations(ctx, db, 0, 1<<60, 4000)
		if err != nil || len(revs) != 1 || revs[0].ExpiresAt != 90_000 {
			t.Fatalf("revocations %+v %v, want one expiring at 90000", revs, err)
		}
		if st, _ := storage.LoginSessionStateByID(ctx, db, "a"); st.Live {
			t.Fatal("revoked session is live")
		}
		// A session from before the column: the fallback.
		if err := start("old", 0); err != nil {
			t.Fatal(err)
		}
		if ok, err := storage.RevokeLoginSession(ctx, db, "old", 4000, 7000); err != nil || !ok {
			t.Fatal(ok, err)
		}
		revs, _ = storage.LoginRevocations(ctx, db, revs[0].ID, 1<<60, 4000)
		if len(revs) != 1 || revs[0].ExpiresAt != 7000 {
			t.Fatalf("revocations %+v, want one expiring at 7000", revs)
		}
		// Deactivated: every session revoked, and none can start.
		if err := start("b", 50_000); err != nil {
			t.Fatal(err)
		}
		if err := storage.SetLoginUserActive(ctx, db, u.ID, false, 5000, 6000); err != nil {
			t.Fatal(err)
		}
		if st, _ := storage.LoginSessionStateByID(ctx, db, "b"); st.Live {
			t.Fatal("session of a deactivated user is live")
		}
		if err := start("c", 50_000); !errors.Is(err, storage.ErrLoginInactive) {
			t.Fatalf("session for an inactive user: %v", err)
		}
		if _, err := storage.LoginSessionStateByID(ctx, db, "c"); !errors.Is(err, storage.ErrLoginNotFound) {
			t.Fatalf("refused session stored: %v", err)
		}
	})
}
