package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx/internal/store"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestRenameRecorded: a rename of a login user records it for the pollers
// (by id after a cursor, and by time within a margin) in the caller's
// transaction, so a rename rolled back leaves no row; a name another user
// holds is ErrUsernameTaken, an unknown old name renames nothing; Prune
// deletes the rows past their expiry.
func TestRenameRecorded(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		var ids []string
		for _, n := range []string{"ann", "ben"} {
			u := &store.User{Service: "idp", Subject: n}
			if _, err := store.UpsertUser(ctx, db, u, 1000, func() (string, string, error) { return n, "subject", nil }); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, u.ID)
		}
		if _, err := store.RenameUsername(ctx, db, "ann", "ben", 2000, 9000); !errors.Is(err, store.ErrUsernameTaken) {
			t.Fatalf("rename onto another user's name: %v", err)
		}
		if renamed, err := store.RenameUsername(ctx, db, "nobody", "x", 2000, 9000); err != nil || renamed {
			t.Fatalf("rename of an unknown name: %v %v", renamed, err)
		}
		rollback := errors.New("rolled back")
		if err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if _, err := store.RenameUsername(ctx, tx, "ben", "ben-2", 2000, 9000); err != nil {
				return err
			}
			return rollback
		}); !errors.Is(err, rollback) {
			t.Fatal(err)
		}
		if renamed, err := store.RenameUsername(ctx, db, "ann", "anna", 3000, 9000); err != nil || !renamed {
			t.Fatalf("rename: %v %v", renamed, err)
		}
		rows, err := store.Renames(ctx, db, 0, 1<<40, 4000)
		if err != nil || len(rows) != 1 || rows[0].UserID != ids[0] || rows[0].RenamedAt != 3000 {
			t.Fatalf("renames after id 0: %+v %v", rows, err)
		}
		if again, err := store.Renames(ctx, db, rows[0].ID, 3000, 4000); err != nil || len(again) != 1 {
			t.Fatalf("renames within the margin: %+v %v", again, err)
		}
		if none, err := store.Renames(ctx, db, rows[0].ID, 3001, 4000); err != nil || len(none) != 0 {
			t.Fatalf("renames past the cursor and the margin: %+v %v", none, err)
		}
		if err := store.Prune(ctx, db, 9000); err != nil {
			t.Fatal(err)
		}
		if left, err := store.Renames(ctx, db, 0, 0, 0); err != nil || len(left) != 0 {
			t.Fatalf("renames after their expiry was pruned: %+v %v", left, err)
		}
	})
}
