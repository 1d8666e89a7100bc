package loginx_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/golang-jwt/jwt/v5"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/internal/store"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// resolve runs the service's Resolver on a request with the given headers.
func resolve(svc *loginx.Service, headers ...string) (string, error) {
	w := httptest.NewRecorder()
	c, _ := gin.CreateTestContext(w)
	c.Request = httptest.NewRequest("GET", "/", nil)
	for i := 0; i+1 < len(headers); i += 2 {
		c.Request.Header.Set(headers[i], headers[i+1])
	}
	return svc.Resolver()(c)
}

func wantNoUser(t *testing.T, svc *loginx.Service, headers ...string) {
	t.Helper()
	u, err := resolve(svc, headers...)
	if !errors.Is(err, middleware.ErrNoUser) || !errors.Is(err, loginx.ErrInvalidSession) || u != "" {
		t.Fatalf("resolver gave %q, %v; want ErrNoUser", u, err)
	}
}

func TestResolver(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		var offset atomic.Int64
		clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
		e := newEnv(t, db, func(c *loginx.Config) { c.Now = clock; c.AccessTTL = time.Minute })
		data := e.mustLogin(alice)
		tok, uid := data["authToken"].(string), data["userId"].(string)

		t.Run("genuine", func(t *testing.T) {
			for _, h := range [][]string{bearer(tok), {"Authorization", "bearer " + tok}, {"X-Auth-Token", tok, "X-User-Id", uid}} {
				if u, err := resolve(e.svc, h...); err != nil || u != aliceName {
					t.Fatalf("%v: %q, %v", h[0], u, err)
				}
			}
		})
		t.Run("missing", func(t *testing.T) { wantNoUser(t, e.svc) })
		t.Run("X-Auth-Token without X-User-Id", func(t *testing.T) { wantNoUser(t, e.svc, "X-Auth-Token", tok) })
		t.Run("X-User-Id of another user", func(t *testing.T) {
			wantNoUser(t, e.svc, "X-Auth-Token", tok, "X-User-Id", uid+"x")
		})
		t.Run("tampered", func(t *testing.T) {
			parts := strings.Split(tok, ".")
			claims := jwt.MapClaims{}
			_, _, _ = jwt.NewParser().ParseUnverified(tok, claims)
			claims["username"] = "root"
			forged, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte("not the secret, but long enough!!"))
			fp := strings.Split(forged, ".")
			wantNoUser(t, e.svc, bearer(parts[0]+"."+fp[1]+"."+parts[2])...)
			// A signature with one character changed in its middle (every
			// bit of it counts).
			sig := []byte(parts[2])
			sig[10] = map[bool]byte{true: 'B', false: 'A'}[sig[10] == 'A']
			wantNoUser(t, e.svc, bearer(parts[0]+"."+parts[1]+"."+string(sig))...)
			// The same signature spelled with the unused low bits of its last
			// character set (a lenient base64 decoder reads the same bytes).
			const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
			sig = []byte(parts[2])
			last := strings.IndexByte(alphabet, sig[len(sig)-1])
			sig[len(sig)-1] = alphabet[last|1]
			wantNoUser(t, e.svc, bearer(parts[0]+"."+parts[1]+"."+string(sig))...)
		})
		t.Run("wrong secret", func(t *testing.T) {
			other := newEnv(t, db, func(c *loginx.Config) { c.JWTSecret = strings.Repeat("z", 40) })
			otok := other.mustLogin(alice)["authToken"].(string)
			wantNoUser(t, e.svc, bearer(otok)...)
		})
		t.Run("other algorithm", func(t *testing.T) {
			claims := jwt.MapClaims{}
			_, _, _ = jwt.NewParser().ParseUnverified(tok, claims)
			hs512, _ := jwt.NewWithClaims(jwt.SigningMethodHS512, claims).SignedString([]byte(secret))
			wantNoUser(t, e.svc, bearer(hs512)...)
			none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
			wantNoUser(t, e.svc, bearer(none)...)
		})
		t.Run("expired", func(t *testing.T) {
			// Verified once (cached), then the clock passes its expiry.
			if _, err := resolve(e.svc, bearer(tok)...); err != nil {
				t.Fatal(err)
			}
			offset.Store(int64(2 * time.Minute))
			defer offset.Store(0)
			wantNoUser(t, e.svc, bearer(tok)...)
			code, body := e.do("GET", "/api/v1/me", "", bearer(tok)...)
			wantError(t, code, body, http.StatusUnauthorized, "unauthorized")
		})
		t.Run("logged out", func(t *testing.T) {
			tok2 := e.mustLogin(alice)["authToken"].(string)
			if _, err := resolve(e.svc, bearer(tok2)...); err != nil {
				t.Fatal(err)
			}
			code, body := e.do("POST", "/api/v1/logout", "", bearer(tok2)...)
			if code != 200 || body["status"] != "success" {
				t.Fatalf("logout: %d %v", code, body)
			}
			wantNoUser(t, e.svc, bearer(tok2)...)
			code, body = e.do("POST", "/api/v1/logout", "", bearer(tok2)...)
			wantError(t, code, body, http.StatusUnauthorized, "unauthorized")
			// The first session is untouched.
			if u, err := resolve(e.svc, bearer(tok)...); err != nil || u != aliceName {
				t.Fatalf("other session: %q, %v", u, err)
			}
		})
	})
}

func TestLogoutReachesOtherReplicas(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		a := newEnv(t, db)
		b := newEnvWithProvider(t, db, a.idp)
		tok := a.mustLogin(alice)["authToken"].(string)
		if u, err := resolve(b.svc, bearer(tok)...); err != nil || u != aliceName {
			t.Fatalf("replica b: %q, %v", u, err)
		}
		if code, _ := a.do("POST", "/api/v1/logout", "", bearer(tok)...); code != 200 {
			t.Fatal(code)
		}
		waitFor(t, func() bool { _, err := resolve(b.svc, bearer(tok)...); return err != nil })
		// A replica started later also knows.
		c := newEnvWithProvider(t, db, a.idp)
		wantNoUser(t, c.svc, bearer(tok)...)
	})
}

func TestRefresh(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		e := newEnv(t, db)
		data := e.mustLogin(alice)
		r1 := data["refreshToken"].(string)
		refresh := func(tok string) (int, map[string]any) {
			return e.do("POST", "/api/v1/token/refresh", `{"refreshToken":"`+tok+`"}`)
		}
		code, body := refresh(r1)
		if code != 200 {
			t.Fatalf("refresh: %d %v", code, body)
		}
		d2 := body["data"].(map[string]any)
		r2, a2 := d2["refreshToken"].(string), d2["authToken"].(string)
		if r2 == r1 || a2 == data["authToken"] || d2["userId"] != data["userId"] {
			t.Fatalf("not rotated: %v", d2)
		}
		if u, err := resolve(e.svc, bearer(a2)...); err != nil || u != aliceName {
			t.Fatalf("new authToken: %q %v", u, err)
		}
		t.Run("unknown", func(t *testing.T) {
			code, body := refresh("nonsense")
			wantError(t, code, body, http.StatusUnauthorized, "invalid-refresh-token")
		})
		t.Run("malformed", func(t *testing.T) {
			code, body := e.do("POST", "/api/v1/token/refresh", `{"refreshToken":5}`)
			wantError(t, code, body, http.StatusBadRequest, "invalid-request")
		})
		t.Run("reuse revokes the family", func(t *testing.T) {
			code, body := refresh(r1)
			wantError(t, code, body, http.StatusUnauthorized, "refresh-token-reused")
			wantNoUser(t, e.svc, bearer(a2)...)
			wantNoUser(t, e.svc, bearer(data["authToken"].(string))...)
			code, body = refresh(r2)
			wantError(t, code, body, http.StatusUnauthorized, "invalid-refresh-token")
		})
	})
}

func TestInactiveUser(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		e := newEnv(t, db)
		data := e.mustLogin(alice)
		tok := data["authToken"].(string)
		now := time.Now()
		if err := store.SetUserActive(context.Background(), db, data["userId"].(string), false, now.UnixMilli(), now.Add(time.Hour).UnixMilli()); err != nil {
			t.Fatal(err)
		}
		code, body := e.login(alice)
		wantError(t, code, body, http.StatusForbidden, "user-inactive")
		code, body = e.do("POST", "/api/v1/token/refresh", `{"refreshToken":"`+data["refreshToken"].(string)+`"}`)
		wantError(t, code, body, http.StatusUnauthorized, "invalid-refresh-token")
		waitFor(t, func() bool { _, err := resolve(e.svc, bearer(tok)...); return err != nil })
	})
}

func TestNewRefusesBadConfig(t *testing.T) {
	db := storagetest.OpenTarget(t, storagetest.SQLite(t))
	cases := map[string]loginx.Config{
		"short secret":       {JWTSecret: "too-short"},
		"RS256":              {JWTAlgorithm: "RS256"},
		"none":               {JWTAlgorithm: "none"},
		"provider no issuer": {Providers: []loginx.ProviderConfig{{Name: "x", ClientIDs: []string{"a"}}}},
		"provider no client": {Providers: []loginx.ProviderConfig{{Name: "x", Issuer: "https://x.example"}}},
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			if s, err := loginx.New(context.Background(), db, cfg); err == nil {
				s.Close()
				t.Fatal("accepted")
			}
		})
	}
}
