package authz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// The whole path a host app relies on: log in through the mounted login
// route with tokens from a real (in-process) OIDC provider, then call the
// host's guarded route with the session token. me.roles are the user's
// roles under AUTH_CLIENT_KEY; logout makes the guard answer 401.
func TestLoginSessionDrivesGuards(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		idp := loginxtest.NewProvider(t)
		key := newKey()
		az := openTarget(t, target, func(cfg *Config) {
			cfg.ClientKey = key
			pc := idp.Config("acme")
			pc.UserClaim = "email" // so that the admin can grant before the first login
			cfg.OAuthProviders = []loginx.ProviderConfig{pc}
			cfg.Login = loginx.Start
			cfg.JWTSecretWrapKey = "wrap-key-for-tests-0123456789abcdef"
		})
		ctx := context.Background()
		host := mustHost(t, az)
		host.AddRole(ctx, "editor", "")
		host.AddPermission(ctx, "editor", "edit")
		host.AddMembership(ctx, "sara@example.com", "editor")

		r := gin.New()
		if err := az.Mount(r); err != nil {
			t.Fatal(err)
		}
		r.POST("/notes", az.RequirePermission("edit"), func(c *gin.Context) {
			u, _ := middleware.UserFrom(c)
			c.String(http.StatusCreated, u)
		})
		do := func(method, path string, body any, header ...string) *httptest.ResponseRecorder {
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
			r.ServeHTTP(w, req)
			return w
		}

		idToken, accessToken := idp.Login(loginxtest.User{Subject: "s-1", PreferredUsername: "sara", Email: "sara@example.com", EmailVerified: true})
		w := do(http.MethodPost, "/api/v1/login", map[string]any{
			"serviceName": "acme", "accessToken": accessToken, "idToken": idToken, "expiresIn": 3600,
		})
		if w.Code != http.StatusOK {
			t.Fatalf("login: %d %s", w.Code, w.Body)
		}
		var login struct {
			Status string
			Data   struct {
				AuthToken string
				UserID    string
				Me        struct {
					Username string
					Roles    []string
				}
			}
		}
		if err := json.Unmarshal(w.Body.Bytes(), &login); err != nil || login.Status != "success" {
			t.Fatalf("login body: %v %s", err, w.Body)
		}
		if login.Data.Me.Username != "sara@example.com" || !slices.Equal(login.Data.Me.Roles, []string{"editor"}) {
			t.Fatalf("me = %+v, want username sara@example.com with roles [editor]", login.Data.Me)
		}
		bearer := "Bearer " + login.Data.AuthToken

		if w := do(http.MethodPost, "/notes", nil); w.Code != http.StatusUnauthorized {
			t.Fatalf("no token: %d", w.Code)
		}
		if w := do(http.MethodPost, "/notes", nil, "Authorization", bearer); w.Code != http.StatusCreated || w.Body.String() != "sara@example.com" {
			t.Fatalf("with token: %d %s", w.Code, w.Body)
		}
		if w := do(http.MethodPost, "/notes", nil, "X-Auth-Token", login.Data.AuthToken, "X-User-Id", login.Data.UserID); w.Code != http.StatusCreated {
			t.Fatalf("with X-Auth-Token: %d %s", w.Code, w.Body)
		}
		host.DelMembership(ctx, "sara@example.com", "editor")
		if w := do(http.MethodPost, "/notes", nil, "Authorization", bearer); w.Code != http.StatusForbidden {
			t.Fatalf("after revoke: %d %s", w.Code, w.Body)
		}
		if w := do(http.MethodPost, "/api/v1/logout", nil, "Authorization", bearer); w.Code != http.StatusOK {
			t.Fatalf("logout: %d %s", w.Code, w.Body)
		}
		if w := do(http.MethodPost, "/notes", nil, "Authorization", bearer); w.Code != http.StatusUnauthorized {
			t.Fatalf("after logout: %d %s", w.Code, w.Body)
		}
	})
}

// Providers without Config.Login fail Open with a message naming the fix,
// rather than serving guarded routes that nobody can log in to.
func TestLoginProvidersNeedLogin(t *testing.T) {
	target := storagetest.SQLite(t)
	cfg := configFor(target)
	cfg.OAuthProviders = []loginx.ProviderConfig{loginxtest.NewProvider(t).Config("acme")}
	az, err := Open(context.Background(), cfg)
	if err == nil {
		az.Close()
		t.Fatal("Open with providers and no Config.Login succeeded")
	}
	if !errors.Is(err, errLoginNotLinked) || !strings.Contains(err.Error(), "loginx.Start") {
		t.Fatalf("Open: %v; want the message naming loginx.Start", err)
	}
}
