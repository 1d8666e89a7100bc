package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rolegate/rolegate/loginx/internal/store"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// A store made before user names were derived from the subject: its users
// keep their names (and so their grants) after the upgrade, marked legacy;
// new users get the name they are given, and a taken name is refused
// rather than suffixed.
func TestLoginUsersSurviveUsernameMigration(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		db, err := storage.Open(ctx, target.Config)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		// The store as the previous release left it: no username_source
		// column, and its migration not recorded.
		if _, err := storage.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`ALTER TABLE rolegate_login_users DROP COLUMN username_source`,
			`DELETE FROM rolegate_migrations WHERE name = '20261123000300'`,
		} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		// A row as the previous release wrote it.
		if _, err := db.ExecContext(ctx, `INSERT INTO rolegate_login_users (id, service, subject, username, created_at, updated_at)
			VALUES ('u1', 'google', '1098', 'sara', 1, 1)`); err != nil {
			t.Fatal(err)
		}
		if _, err := storage.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		never := func() (string, string, error) { t.Fatal("an existing user was given a new name"); return "", "", nil }
		u := &store.User{Service: "google", Subject: "1098", Name: "Sara"}
		if created, err := store.UpsertUser(ctx, db, u, 2, never); err != nil || created {
			t.Fatalf("existing user: created %v, err %v", created, err)
		}
		if u.ID != "u1" || u.Username != "sara" || u.UsernameSource != store.UsernameLegacy || u.Name != "Sara" || !u.Active {
			t.Fatalf("existing user after the upgrade: %+v", u)
		}
		name := func(n string) func() (string, string, error) {
			return func() (string, string, error) { return n, store.UsernameFromSubject, nil }
		}
		nu := &store.User{Service: "google", Subject: "2000"}
		if created, err := store.UpsertUser(ctx, db, nu, 3, name("google:2000")); err != nil || !created || nu.UsernameSource != store.UsernameFromSubject {
			t.Fatalf("new user: %v %v %+v", created, err, nu)
		}
		squat := &store.User{Service: "other", Subject: "x"}
		if _, err := store.UpsertUser(ctx, db, squat, 4, name("sara")); !errors.Is(err, store.ErrUsernameTaken) {
			t.Fatalf("taken name: %v, want ErrUsernameTaken", err)
		}
		refused := errors.New("refused")
		if _, err := store.UpsertUser(ctx, db, squat, 4, func() (string, string, error) { return "", "", refused }); !errors.Is(err, refused) {
			t.Fatalf("newName error: %v", err)
		}
		if n, _ := db.NewSelect().Table("rolegate_login_users").Count(ctx); n != 2 {
			t.Fatalf("%d users, want 2", n)
		}
	})
}
