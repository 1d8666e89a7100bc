package authz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestRenameUserFollowsLogin: renaming the RBAC name of a login user on
// the host client renames the login user in the same transaction, so the
// next session carries the new name and passes the guards with the moved
// memberships. A new name that is another login user's is ErrUserExists,
// even with merge, and changes nothing. Another client's rename leaves
// the login alone.
func TestRenameUserFollowsLogin(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		idp := loginxtest.NewProvider(t)
		key := newKey()
		az := openTarget(t, target, func(cfg *Config) {
			cfg.ClientKey = key
			pc := idp.Config("acme")
			pc.UserClaim = "email"
			cfg.OAuthProviders = []loginx.ProviderConfig{pc}
			cfg.Login = loginx.Start
			cfg.JWTSecretWrapKey = "wrap-key-for-tests-0123456789abcdef"
		})
		ctx := context.Background()
		host := mustHost(t, az)
		mustOK(t)(host.AddRole(ctx, "editor", ""))
		mustOK(t)(host.AddPermission(ctx, "editor", "edit"))
		mustOK(t)(host.AddMembership(ctx, "sara@example.com", "editor"))

		r := gin.New()
		if err := az.Mount(r); err != nil {
			t.Fatal(err)
		}
		r.POST("/notes", az.RequirePermission("edit"), func(c *gin.Context) {
			u, _ := middleware.UserFrom(c)
			c.String(http.StatusCreated, u)
		})
		login := func(subject, email string) (token, username string, roles []string) {
			t.Helper()
			idToken, accessToken := idp.Login(loginxtest.User{Subject: subject, Email: email, EmailVerified: true})
			var b bytes.Buffer
			json.NewEncoder(&b).Encode(map[string]any{"serviceName": "acme", "accessToken": accessToken, "idToken": idToken, "expiresIn": 3600})
			req := httptest.NewRequest(http.MethodPost, "/api/v1/login", &b)
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				t.Fatalf("login: %d %s", w.Code, w.Body)
			}
			var out struct {
				Data struct {
					AuthToken string
					Me        struct {
						Username string
						Roles    []string
					}
				}
			}
			if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
				t.Fatal(err)
			}
			return out.Data.AuthToken, out.Data.Me.Username, out.Data.Me.Roles
		}
		post := func(token string) (int, string) {
			req := httptest.NewRequest(http.MethodPost, "/notes", nil)
			req.Header.Set("Authorization", "Bearer "+token)
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			return w.Code, w.Body.String()
		}

		if _, name, _ := login("s-1", "sara@example.com"); name != "sara@example.com" {
			t.Fatalf("first login named %q", name)
		}
		login("s-2", "jack@example.com")
		if _, err := host.RenameUser(ctx, "sara@example.com", "jack@example.com", true); !errors.Is(err, ErrUserExists) {
			t.Fatalf("rename onto another login user: %v", err)
		}
		if n, err := host.RenameUser(ctx, "sara@example.com", "user-1", false); err != nil || n != 1 {
			t.Fatalf("rename: %d %v", n, err)
		}
		token, name, roles := login("s-1", "sara@example.com")
		if name != "user-1" || !slices.Equal(roles, []string{"editor"}) {
			t.Fatalf("after the rename the login names %q with roles %v", name, roles)
		}
		if code, user := post(token); code != http.StatusCreated || user != "user-1" {
			t.Fatalf("guarded route with the new session: %d %q", code, user)
		}

		// Another client's names are not the login's.
		other := mustClient(t, az, newKey())
		mustOK(t)(other.AddRole(ctx, "r", ""))
		mustOK(t)(other.AddMembership(ctx, "user-1", "r"))
		if _, err := other.RenameUser(ctx, "user-1", "user-9", false); err != nil {
			t.Fatal(err)
		}
		if _, name, _ := login("s-1", "sara@example.com"); name != "user-1" {
			t.Fatalf("another client's rename renamed the login user to %q", name)
		}
	})
}
