package authz

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestSessionsFollowRenameSwap is the attack of the report, over loopback
// on two replicas of one store, with real tokens from the in-process OIDC
// provider: test:alice1 (reader) and test:bob1 (editor) log in; an admin
// swaps their names through a third (alice1 -> tmp, bob1 -> alice1,
// tmp -> bob1), over REST or through Client.RenameUser. Before, alice's
// old token went on acting as test:alice1, which now held bob's editor
// membership (POST /notes 403 -> 201), while /api/v1/me named test:bob1.
// A session follows its user's id: alice's token now acts as test:bob1
// with her own grants (POST /notes stays 403, GET /notes answers as
// test:bob1), at once on the replica that renamed and within its login
// poll (1 s) on the other, where the time it honoured the old name is
// measured; /api/v1/me agrees with the guards.
func TestSessionsFollowRenameSwap(t *testing.T) {
	for _, via := range []string{"rest", "library"} {
		t.Run(via, func(t *testing.T) {
			storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
				testSessionsFollowRenameSwap(t, target, via)
			})
		})
	}
}

func testSessionsFollowRenameSwap(t *testing.T, target storagetest.Target, via string) {
	idp := loginxtest.NewProvider(t)
	key := newKey()
	open := func() (*Authz, *httptest.Server) {
		az := openTarget(t, target, func(cfg *Config) {
			cfg.ClientKey = key
			cfg.OAuthProviders = []loginx.ProviderConfig{idp.Config("test")}
			cfg.Login = loginx.Start
			cfg.JWTSecretWrapKey = "wrap-key-for-tests-0123456789abcdef"
			cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
		})
		r := gin.New()
		if err := az.Mount(r); err != nil {
			t.Fatal(err)
		}
		echo := func(status int) gin.HandlerFunc {
			return func(c *gin.Context) {
				u, _ := middleware.UserFrom(c)
				c.String(status, u)
			}
		}
		r.POST("/notes", az.RequirePermission("edit"), echo(http.StatusCreated))
		r.GET("/notes", az.RequirePermission("read"), echo(http.StatusOK))
		srv := httptest.NewServer(r)
		t.Cleanup(srv.Close)
		return az, srv
	}
	azA, a := open()
	_, b := open()
	ctx := context.Background()
	do := func(srv *httptest.Server, method, path, bearer string, body any) (int, []byte) {
		t.Helper()
		var rd io.Reader
		if body != nil {
			raw, _ := json.Marshal(body)
			rd = bytes.NewReader(raw)
		}
		req, err := http.NewRequestWithContext(ctx, method, srv.URL+path, rd)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+bearer)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, out
	}
	admin := func(path string) {
		t.Helper()
		if code, body := do(a, http.MethodPost, path, key, nil); code != http.StatusCreated && code != http.StatusOK {
			t.Fatalf("POST %s: %d %s", path, code, body)
		}
	}
	admin("/api/role/reader")
	admin("/api/role/editor")
	admin("/api/permission/reader/read")
	admin("/api/permission/editor/edit")
	admin("/api/membership/test:alice1/reader")
	admin("/api/membership/test:bob1/editor")

	login := func(subject string) string {
		t.Helper()
		id, at := idp.Login(loginxtest.User{Subject: subject})
		code, body := do(a, http.MethodPost, "/api/v1/login", "", map[string]any{"serviceName": "test", "accessToken": at, "idToken": id, "expiresIn": 3600})
		var out struct {
			Data struct {
				AuthToken string
				Me        struct{ Username string }
			}
		}
		if code != http.StatusOK || json.Unmarshal(body, &out) != nil || out.Data.Me.Username != "test:"+subject {
			t.Fatalf("login of %s: %d %s", subject, code, body)
		}
		return out.Data.AuthToken
	}
	alice, bob := login("alice1"), login("bob1")
	// answers: the statuses of POST and GET /notes, and the user the
	// guard let through (either route's echo).
	type answers struct {
		post, get int
		user      string
	}
	ask := func(srv *httptest.Server, tok string) answers {
		t.Helper()
		post, posted := do(srv, http.MethodPost, "/notes", tok, nil)
		get, got := do(srv, http.MethodGet, "/notes", tok, nil)
		a := answers{post: post, get: get}
		switch {
		case get == http.StatusOK:
			a.user = string(got)
		case post == http.StatusCreated:
			a.user = string(posted)
		}
		return a
	}
	for _, srv := range []*httptest.Server{a, b} {
		if got := ask(srv, alice); got != (answers{http.StatusForbidden, http.StatusOK, "test:alice1"}) {
			t.Fatalf("alice before the swap: %+v", got)
		}
		if got := ask(srv, bob); got != (answers{http.StatusCreated, http.StatusForbidden, "test:bob1"}) {
			t.Fatalf("bob before the swap: %+v", got)
		}
	}

	host := mustHost(t, azA)
	rename := func(old, newName string) {
		t.Helper()
		if via == "rest" {
			if code, body := do(a, http.MethodPost, "/api/user/"+old+"/rename/"+newName, key, nil); code != http.StatusOK {
				t.Fatalf("rename %s -> %s: %d %s", old, newName, code, body)
			}
			return
		}
		if _, err := host.RenameUser(ctx, old, newName, false); err != nil {
			t.Fatalf("rename %s -> %s: %v", old, newName, err)
		}
	}
	rename("test:alice1", "tmp")
	rename("test:bob1", "test:alice1")
	rename("tmp", "test:bob1")
	swapped := time.Now()

	// The replica that renamed: at once.
	wantAlice := answers{http.StatusForbidden, http.StatusOK, "test:bob1"}
	if got := ask(a, alice); got != wantAlice {
		t.Fatalf("alice's old token after the swap: %+v, want %+v", got, wantAlice)
	}
	if got := ask(a, bob); got != (answers{http.StatusCreated, http.StatusForbidden, "test:alice1"}) {
		t.Fatalf("bob's old token after the swap: %+v", got)
	}
	code, body := do(a, http.MethodGet, "/api/v1/me", alice, nil)
	var me struct {
		Data struct {
			Username string
			Roles    []string
		}
	}
	if code != http.StatusOK || json.Unmarshal(body, &me) != nil || me.Data.Username != "test:bob1" || !slices.Equal(me.Data.Roles, []string{"reader"}) {
		t.Fatalf("alice's me after the swap: %d %s", code, body)
	}

	// The other replica: within its poll. Every answer it gives alice's
	// token meanwhile is either the old name's or the new one's; the time
	// it gave the old name's (POST /notes 201 as test:alice1) is the window.
	var lastOld time.Duration
	deadline := swapped.Add(5 * time.Second)
	for {
		post, user := do(b, http.MethodPost, "/notes", alice, nil)
		if post == http.StatusCreated {
			lastOld = time.Since(swapped)
			if string(user) != "test:alice1" {
				t.Fatalf("replica b let alice's token edit as %q", user)
			}
		} else if got := ask(b, alice); got == wantAlice {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica b still answers alice's token with %+v 5 s after the swap", ask(b, alice))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%s via %s: the other replica followed in %v; it honoured the old name for %v (login poll %v)",
		target.Name, via, time.Since(swapped).Round(time.Millisecond), lastOld.Round(time.Millisecond), loginx.DefaultRevocationPollInterval)
	if lastOld > 2*loginx.DefaultRevocationPollInterval {
		t.Errorf("replica b honoured the old name for %v, past twice the poll", lastOld)
	}
}
