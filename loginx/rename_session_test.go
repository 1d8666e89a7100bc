package loginx_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

var bob = loginxtest.User{Subject: "sub-bob", Email: "bob@example.org", EmailVerified: true}

const bobName = service + ":sub-bob"

// TestSessionFollowsRename: a session follows its user's id, not the name
// its token was issued with. Alice and bob log in; their names are swapped
// through a third (alice -> tmp, bob -> alice's, tmp -> bob's), each rename
// in a transaction of its own as an RBAC rename runs it. Before, alice's
// old token went on acting as her old name, which now held bob's grants,
// while /api/v1/me named her new one. Now, on this replica after Sync and
// on another within its poll, alice's token acts as her new name and bob's
// as his, /api/v1/me agrees, and a hit on a known session reads nothing
// from the store. A rename rolled back changes nothing.
func TestSessionFollowsRename(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		a := newEnv(t, db)
		b := newEnvWithProvider(t, db, a.idp)
		aliceTok := a.mustLogin(alice)["authToken"].(string)
		bobTok := a.mustLogin(bob)["authToken"].(string)
		for _, e := range []*env{a, b} {
			wantUser(t, e.svc, aliceTok, aliceName)
			wantUser(t, e.svc, bobTok, bobName)
		}

		rename := func(old, newName string) {
			t.Helper()
			err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				renamed, err := a.svc.RenameUser(ctx, tx, old, newName)
				if err == nil && !renamed {
					err = errors.New("no login user renamed")
				}
				return err
			})
			if err != nil {
				t.Fatalf("rename %s -> %s: %v", old, newName, err)
			}
		}
		rename(aliceName, "tmp")
		rename(bobName, aliceName)
		rename("tmp", bobName)
		if err := a.svc.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		wantUser(t, a.svc, aliceTok, bobName)
		wantUser(t, a.svc, bobTok, aliceName)
		if code, body := a.do("GET", "/api/v1/me", "", bearer(aliceTok)...); code != http.StatusOK || body["data"].(map[string]any)["username"] != bobName {
			t.Fatalf("alice's me after the swap: %d %v", code, body)
		}
		start := time.Now()
		waitFor(t, func() bool {
			u1, err1 := resolve(b.svc, bearer(aliceTok)...)
			u2, err2 := resolve(b.svc, bearer(bobTok)...)
			return err1 == nil && err2 == nil && u1 == bobName && u2 == aliceName
		})
		t.Logf("the other replica followed the swap within %v (poll every 20ms)", time.Since(start))

		// Known sessions answer from memory.
		reads := loginx.SessionReadsOf(a.svc)
		for range 100 {
			wantUser(t, a.svc, aliceTok, bobName)
		}
		if n := loginx.SessionReadsOf(a.svc) - reads; n != 0 {
			t.Errorf("100 requests of a known session read the store %d times", n)
		}

		// Rolled back: nothing to follow.
		rollback := errors.New("rolled back")
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if _, err := a.svc.RenameUser(ctx, tx, bobName, "someone-else"); err != nil {
				return err
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatal(err)
		}
		if err := a.svc.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		wantUser(t, a.svc, aliceTok, bobName)
	})
}

// TestSessionFollowsRenameConcurrently: requests of a session on two
// replicas while its user is renamed back and forth. Once each rename has
// been polled, both replicas answer the name the store holds: no entry
// read before a rename outlives it (the entry made while a poll ran is
// read again).
func TestSessionFollowsRenameConcurrently(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		a := newEnv(t, db)
		b := newEnvWithProvider(t, db, a.idp)
		tok := a.mustLogin(alice)["authToken"].(string)
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, e := range []*env{a, b} {
					if _, err := resolve(e.svc, bearer(tok)...); err != nil {
						t.Errorf("refused during renames: %v", err)
						return
					}
				}
			}
		}()
		names := []string{aliceName, "alice-2"}
		for i := range 30 {
			old, next := names[i%2], names[(i+1)%2]
			if err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				_, err := a.svc.RenameUser(ctx, tx, old, next)
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		close(stop)
		<-done
		final := names[0] // 30 renames: back where it started
		if err := a.svc.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		wantUser(t, a.svc, tok, final)
		waitFor(t, func() bool { u, err := resolve(b.svc, bearer(tok)...); return err == nil && u == final })
	})
}

func wantUser(t *testing.T, svc *loginx.Service, tok, want string) {
	t.Helper()
	if u, err := resolve(svc, bearer(tok)...); err != nil || u != want {
		t.Fatalf("session resolves to %q, %v; want %q", u, err, want)
	}
}
