package loginx_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// forge signs a session token with the service's own secret, as someone who
// read the secret would.
func forge(t *testing.T, sub, username, sid string, iat, exp time.Time) string {
	t.Helper()
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": "rolegate", "sub": sub, "username": username, "sid": sid, "jti": "forged",
		"iat": iat.Unix(), "exp": exp.Unix(),
	}).SignedString([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestForgedTokenUnknownSessionRefused: a token with a valid signature is
// refused when its session never existed (exp 100 years away), and when
// exp - iat exceeds the configured lifetime even for a real session.
func TestForgedTokenUnknownSessionRefused(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		e := newEnv(t, db)
		data := e.mustLogin(alice)
		uid, tok := data["userId"].(string), data["authToken"].(string)
		claims := jwt.MapClaims{}
		if _, _, err := jwt.NewParser().ParseUnverified(tok, claims); err != nil {
			t.Fatal(err)
		}
		realSID := claims["sid"].(string)
		now := time.Now()
		century := now.AddDate(100, 0, 0)

		never := forge(t, uid, aliceName, "never-existed-session", now, century)
		wantNoUser(t, e.svc, bearer(never)...)
		code, body := e.do("GET", "/api/v1/me", "", bearer(never)...)
		wantError(t, code, body, http.StatusUnauthorized, "unauthorized")
		wantNoUser(t, e.svc, bearer(forge(t, "no-such-user", "root", "never-existed-2", now, now.Add(time.Minute)))...)

		// A real session id does not let a token live longer than the
		// lifetime (24h by default), nor belong to another user.
		wantNoUser(t, e.svc, bearer(forge(t, uid, aliceName, realSID, now, century))...)
		wantNoUser(t, e.svc, bearer(forge(t, uid, aliceName, realSID, now, now.Add(25*time.Hour)))...)
		wantNoUser(t, e.svc, bearer(forge(t, "another-user", "bob", realSID, now, now.Add(time.Hour)))...)
		// The genuine token still works.
		if u, err := resolve(e.svc, bearer(tok)...); err != nil || u != aliceName {
			t.Fatalf("genuine token: %q %v", u, err)
		}
	})
}

// TestClockLeewayBetweenReplicas: a replica whose clock is 3 s ahead mints
// tokens the others accept; one 30 s ahead does not.
func TestClockLeewayBetweenReplicas(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		a := newEnv(t, db)
		for _, c := range []struct {
			ahead time.Duration
			ok    bool
		}{{3 * time.Second, true}, {30 * time.Second, false}} {
			ahead := newEnvWithProvider(t, db, a.idp, func(cfg *loginx.Config) {
				cfg.Now = func() time.Time { return time.Now().Add(c.ahead) }
			})
			tok := ahead.mustLogin(alice)["authToken"].(string)
			u, err := resolve(a.svc, bearer(tok)...)
			if c.ok && (err != nil || u != aliceName) {
				t.Fatalf("token from a replica %v ahead: %q %v", c.ahead, u, err)
			}
			if !c.ok && err == nil {
				t.Fatalf("token from a replica %v ahead was accepted", c.ahead)
			}
		}
	})
}

// TestRevocationOutlivesLifetimeChange: a session revoked by a replica
// whose lifetime setting is shorter stays revoked for as long as the
// tokens issued under the longer one live, on every replica, including
// one started after the shorter lifetime has passed.
func TestRevocationOutlivesLifetimeChange(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		var offset atomic.Int64
		clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
		long := func(c *loginx.Config) { c.Now = clock; c.AccessTTL = time.Hour }
		short := func(c *loginx.Config) { c.Now = clock; c.AccessTTL = time.Minute }
		a := newEnv(t, db, long)
		b := newEnvWithProvider(t, db, a.idp, short)
		data := a.mustLogin(alice)
		tok, r1 := data["authToken"].(string), data["refreshToken"].(string)
		if code, _ := a.do("POST", "/api/v1/token/refresh", `{"refreshToken":"`+r1+`"}`); code != 200 {
			t.Fatal("refresh", code)
		}
		// The spent refresh token presented at the short-lived replica
		// revokes the whole session.
		code, body := b.do("POST", "/api/v1/token/refresh", `{"refreshToken":"`+r1+`"}`)
		wantError(t, code, body, http.StatusUnauthorized, "refresh-token-reused")
		refusedWithin(t, a.svc, tok, time.Second)

		var revExp int64
		if err := db.NewRaw("SELECT MAX(expires_at) FROM rolegate_login_revocations").Scan(context.Background(), &revExp); err != nil {
			t.Fatal(err)
		}
		claims := jwt.MapClaims{}
		_, _, _ = jwt.NewParser().ParseUnverified(tok, claims)
		if tokExp := int64(claims["exp"].(float64)) * 1000; revExp < tokExp {
			t.Fatalf("revocation expires at %d, before the token it revokes (%d)", revExp, tokExp)
		}

		offset.Store(int64(2 * time.Minute))
		c := newEnvWithProvider(t, db, a.idp, long)
		wantNoUser(t, c.svc, bearer(tok)...)
		wantNoUser(t, a.svc, bearer(tok)...)
	})
}

// TestDeactivationDuringConcurrentLogins: logins racing with a
// deactivation either fail or have their session ended; none survives, on
// this replica at once and on another within a few poll intervals.
func TestDeactivationDuringConcurrentLogins(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		a := newEnv(t, db)
		b := newEnvWithProvider(t, db, a.idp)
		uid := a.mustLogin(alice)["userId"].(string)
		ctx := context.Background()
		const rounds, logins = 6, 4
		for round := range rounds {
			if err := a.svc.SetUserActive(ctx, uid, true); err != nil {
				t.Fatal(err)
			}
			ids := make([][2]string, logins)
			for i := range ids {
				ids[i][0], ids[i][1] = a.idp.Login(alice)
			}
			var wg sync.WaitGroup
			toks := make([]string, logins)
			for i := range logins {
				wg.Add(1)
				go func() {
					defer wg.Done()
					code, body := a.do("POST", "/api/v1/login", loginBody(service, ids[i][1], ids[i][0], 3600))
					if code == http.StatusOK {
						toks[i] = body["data"].(map[string]any)["authToken"].(string)
					} else if code != http.StatusForbidden {
						t.Errorf("login: %d %v", code, body)
					}
				}()
			}
			time.Sleep(time.Duration(round) * 2 * time.Millisecond)
			if err := a.svc.SetUserActive(ctx, uid, false); err != nil {
				t.Fatal(err)
			}
			wg.Wait()
			for i, tok := range toks {
				if tok == "" {
					continue
				}
				if u, err := resolve(a.svc, bearer(tok)...); err == nil {
					t.Fatalf("round %d: login %d survived the deactivation as %q", round, i, u)
				}
				if code, _ := a.do("GET", "/api/v1/me", "", bearer(tok)...); code == http.StatusOK {
					t.Fatalf("round %d: me of login %d answers 200", round, i)
				}
				refusedWithin(t, b.svc, tok, time.Second)
			}
		}
	})
}

// TestDeactivationReachesOtherReplicas: a session another replica has
// already accepted ends there within a few poll intervals.
func TestDeactivationReachesOtherReplicas(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		a := newEnv(t, db)
		b := newEnvWithProvider(t, db, a.idp)
		data := a.mustLogin(alice)
		tok := data["authToken"].(string)
		if u, err := resolve(b.svc, bearer(tok)...); err != nil || u != aliceName {
			t.Fatalf("replica b: %q %v", u, err)
		}
		if err := a.svc.SetUserActive(context.Background(), data["userId"].(string), false); err != nil {
			t.Fatal(err)
		}
		wantNoUser(t, a.svc, bearer(tok)...)
		refusedWithin(t, b.svc, tok, time.Second)
	})
}

// refusedWithin checks that svc refuses tok within d (the poll interval of
// the test services is 20ms).
func refusedWithin(t *testing.T, svc *loginx.Service, tok string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		if _, err := resolve(svc, bearer(tok)...); err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still accepted after %v", d)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSessionStoreDown: with the store unreachable, a session this replica
// already knows still resolves from memory, and one it has not seen yet
// gives 503 (ErrResolverUnavailable), not 401 (which would make clients log
// in again).
func TestSessionStoreDown(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		a := newEnv(t, storagetest.OpenTarget(t, target))
		bdb := storagetest.OpenTarget(t, target)
		b := newEnvWithProvider(t, bdb, a.idp)
		known := a.mustLogin(alice)["authToken"].(string)
		unseen := a.mustLogin(alice)["authToken"].(string)
		if u, err := resolve(b.svc, bearer(known)...); err != nil || u != aliceName {
			t.Fatalf("%q %v", u, err)
		}
		bdb.Close()
		if u, err := resolve(b.svc, bearer(known)...); err != nil || u != aliceName {
			t.Fatalf("known session with the store down: %q %v", u, err)
		}
		if _, err := resolve(b.svc, bearer(unseen)...); !errors.Is(err, middleware.ErrResolverUnavailable) || errors.Is(err, middleware.ErrNoUser) {
			t.Fatalf("unseen session with the store down: %v", err)
		}
	})
}
