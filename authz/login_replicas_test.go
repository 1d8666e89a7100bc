package authz

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// loginReplica is one Open with login and a guarded host route.
type loginReplica struct {
	az *Authz
	r  *gin.Engine
}

func (lr loginReplica) do(t *testing.T, method, path string, body any, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	var b bytes.Buffer
	if body != nil {
		json.NewEncoder(&b).Encode(body)
	}
	req := httptest.NewRequest(method, path, &b)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	lr.r.ServeHTTP(w, req)
	return w
}

// TestLoginSessionEndsOnEveryReplica: two Opens on one store (two
// replicas). A logout or a deactivation on one ends the session on the
// other within its revocation poll (1 s by default), on the guarded route
// as on /api/v1/me.
func TestLoginSessionEndsOnEveryReplica(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		idp := loginxtest.NewProvider(t)
		key := newKey()
		open := func() loginReplica {
			az := openTarget(t, target, func(cfg *Config) {
				cfg.ClientKey = key
				cfg.OAuthProviders = []loginx.ProviderConfig{idp.Config("acme")}
				cfg.Login = loginx.Start
				cfg.JWTSecretWrapKey = "wrap-key-for-tests-0123456789abcdef"
			})
			r := gin.New()
			if err := az.Mount(r); err != nil {
				t.Fatal(err)
			}
			r.GET("/notes", az.RequirePermission("read"), func(c *gin.Context) { c.String(http.StatusOK, "ok") })
			return loginReplica{az, r}
		}
		a, b := open(), open()
		ctx := context.Background()
		host := mustHost(t, a.az)
		if _, err := host.AddRole(ctx, "reader", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := host.AddPermission(ctx, "reader", "read"); err != nil {
			t.Fatal(err)
		}

		login := func() (tok, uid string) {
			t.Helper()
			id, at := idp.Login(loginxtest.User{Subject: "s-1", PreferredUsername: "sara", Email: "sara@example.com", EmailVerified: true})
			w := a.do(t, http.MethodPost, "/api/v1/login", map[string]any{"serviceName": "acme", "accessToken": at, "idToken": id, "expiresIn": 3600})
			var out struct {
				Data struct {
					AuthToken, UserID string
					Me                struct{ Username string }
				}
			}
			if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &out) != nil {
				t.Fatalf("login: %d %s", w.Code, w.Body)
			}
			host.AddMembership(ctx, out.Data.Me.Username, "reader")
			return out.Data.AuthToken, out.Data.UserID
		}
		refusedWithin := func(lr loginReplica, path, tok string, d time.Duration) {
			t.Helper()
			deadline := time.Now().Add(d)
			for {
				w := lr.do(t, http.MethodGet, path, nil, "Authorization", "Bearer "+tok)
				if w.Code == http.StatusUnauthorized {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("GET %s still %d after %v", path, w.Code, d)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		const poll = loginx.DefaultRevocationPollInterval

		tok, uid := login()
		for _, lr := range []loginReplica{a, b} {
			if w := lr.do(t, http.MethodGet, "/notes", nil, "Authorization", "Bearer "+tok); w.Code != http.StatusOK {
				t.Fatalf("guarded route: %d %s", w.Code, w.Body)
			}
		}
		if w := a.do(t, http.MethodPost, "/api/v1/logout", nil, "Authorization", "Bearer "+tok); w.Code != http.StatusOK {
			t.Fatalf("logout: %d", w.Code)
		}
		refusedWithin(a, "/notes", tok, 0)
		refusedWithin(b, "/notes", tok, 2*poll)

		tok, _ = login()
		if w := b.do(t, http.MethodGet, "/notes", nil, "Authorization", "Bearer "+tok); w.Code != http.StatusOK {
			t.Fatalf("guarded route: %d %s", w.Code, w.Body)
		}
		if err := a.az.login.(*loginx.Service).SetUserActive(ctx, uid, false); err != nil {
			t.Fatal(err)
		}
		refusedWithin(a, "/notes", tok, 0)
		refusedWithin(b, "/notes", tok, 2*poll)
		refusedWithin(b, "/api/v1/me", tok, 0)
	})
}
