package loginx_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

func TestLoginHappyPath(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		e := newEnv(t, db)
		data := e.mustLogin(alice)
		for _, k := range []string{"authToken", "userId", "refreshToken"} {
			if s, _ := data[k].(string); s == "" {
				t.Fatalf("data.%s missing: %v", k, data)
			}
		}
		me := data["me"].(map[string]any)
		want := map[string]any{
			"_id": data["userId"], "name": "Alice Liddell", "status": "online", "statusConnection": "online",
			"username": aliceName, "utcOffset": 0.0, "active": true, "avatarUrl": "https://example.org/alice.png",
		}
		for k, v := range want {
			if me[k] != v {
				t.Errorf("me.%s = %#v, want %#v", k, me[k], v)
			}
		}
		emails := me["emails"].([]any)
		if len(emails) != 1 || emails[0].(map[string]any)["address"] != "alice@example.org" || emails[0].(map[string]any)["verified"] != true {
			t.Errorf("me.emails = %v", emails)
		}
		if roles := me["roles"].([]any); len(roles) != 1 || roles[0] != "member-of-"+aliceName {
			t.Errorf("me.roles = %v", roles)
		}
		if p, ok := me["settings"].(map[string]any)["preferences"].(map[string]any); !ok || len(p) != 0 {
			t.Errorf("me.settings = %v", me["settings"])
		}
		if len(me) != 11 {
			t.Errorf("me has %d fields, want 11: %v", len(me), me)
		}
		// The authToken works.
		code, body := e.do("GET", "/api/v1/me", "", bearer(data["authToken"].(string))...)
		if code != 200 || body["data"].(map[string]any)["username"] != aliceName {
			t.Fatalf("me: %d %v", code, body)
		}
		code, _ = e.do("GET", "/api/v1/me", "", "X-Auth-Token", data["authToken"].(string), "X-User-Id", data["userId"].(string))
		if code != 200 {
			t.Fatalf("me with X-Auth-Token: %d", code)
		}
		code, _ = e.do("GET", "/api/v1/me", "", "X-Auth-Token", data["authToken"].(string), "X-User-Id", "someone-else")
		if code != 401 {
			t.Fatalf("me with a wrong X-User-Id: %d", code)
		}
	})
}

func TestLoginSamePersonTwiceIsOneUser(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		e := newEnv(t, db)
		first := e.mustLogin(alice)
		changed := alice
		changed.Name, changed.PreferredUsername = "Alice L.", "alice2"
		second := e.mustLogin(changed)
		if first["userId"] != second["userId"] {
			t.Fatalf("two users for one person: %v, %v", first["userId"], second["userId"])
		}
		me := second["me"].(map[string]any)
		if me["name"] != "Alice L." || me["username"] != aliceName {
			t.Fatalf("profile not updated or username changed: %v", me)
		}
	})
}

func TestLoginConcurrentFirstLogins(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		e := newEnv(t, db)
		const n = 8
		ids := make(chan any, n)
		names := make(chan any, n)
		done := make(chan struct{})
		for i := 0; i < n; i++ {
			go func() {
				defer func() { done <- struct{}{} }()
				ids <- e.mustLogin(alice)["userId"]
				u := loginxtest.User{Subject: "sub-c" + strings.Repeat("x", i), PreferredUsername: "carol"}
				names <- e.mustLogin(u)["me"].(map[string]any)["username"]
			}()
		}
		for i := 0; i < n; i++ {
			<-done
		}
		close(ids)
		close(names)
		first := <-ids
		for id := range ids {
			if id != first {
				t.Fatal("concurrent logins of one person made two users")
			}
		}
		seen := map[any]bool{}
		for nm := range names {
			if seen[nm] {
				t.Fatalf("username %v given twice", nm)
			}
			seen[nm] = true
		}
	})
}

func TestLoginRefused(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		e := newEnv(t, db)
		bob := loginxtest.User{Subject: "sub-bob", PreferredUsername: "bob"}
		const notVerify = "the ID token does not verify"
		tokenCases := []struct {
			name, msg string
			opt       loginxtest.Option
		}{
			{"alg none", notVerify, loginxtest.AlgNone()},
			{"HS256 signed with the public key", notVerify, loginxtest.HS256WithPublicKey()},
			{"unknown kid", notVerify, loginxtest.UnknownKey()},
			{"tampered payload", notVerify, loginxtest.Tampered()},
			{"wrong issuer", notVerify, loginxtest.Issuer("https://evil.example.org")},
			{"wrong audience", "the ID token is not for this application", loginxtest.Audience("someone-else")},
			{"expired", "the ID token has expired", loginxtest.Expired()},
			{"nbf in the future", notVerify, loginxtest.NotBeforeFuture()},
			{"at_hash mismatch", "the access token does not match the ID token's at_hash", loginxtest.AtHashMismatch()},
		}
		for _, tc := range tokenCases {
			t.Run(tc.name, func(t *testing.T) {
				code, body := e.login(bob, tc.opt)
				wantError(t, code, body, http.StatusUnauthorized, "invalid-token")
				if body["message"] != tc.msg {
					t.Fatalf("message %q, want %q", body["message"], tc.msg)
				}
			})
		}
		t.Run("ID token and access token of different users", func(t *testing.T) {
			at := e.idp.AccessToken(alice)
			id := e.idp.IDToken(bob, at, loginxtest.NoAtHash())
			code, body := e.do("POST", "/api/v1/login", loginBody(service, at, id, 60))
			wantError(t, code, body, http.StatusUnauthorized, "invalid-token")
			if body["message"] != "the access token and the ID token belong to different users" {
				t.Fatalf("message %q", body["message"])
			}
		})
		t.Run("unknown access token", func(t *testing.T) {
			id := e.idp.IDToken(bob, "never-issued", loginxtest.NoAtHash())
			code, body := e.do("POST", "/api/v1/login", loginBody(service, "never-issued", id, 60))
			wantError(t, code, body, http.StatusUnauthorized, "invalid-token")
			if body["message"] != "the provider did not accept the access token" {
				t.Fatalf("message %q", body["message"])
			}
		})
		t.Run("EC-signed token is accepted", func(t *testing.T) {
			code, body := e.login(bob, loginxtest.SignEC())
			if code != 200 {
				t.Fatalf("%d %v", code, body)
			}
		})
		id, at := e.idp.Login(bob)
		bodies := []struct{ name, body string }{
			{"expiresIn 0", loginBody(service, at, id, 0)},
			{"expiresIn negative", loginBody(service, at, id, -5)},
			{"expiresIn string", loginBody(service, at, id, "3600")},
			{"expiresIn 1.5", loginBody(service, at, id, 1.5)},
			{"expiresIn exponent", strings.Replace(loginBody(service, at, id, 7), `"expiresIn":7`, `"expiresIn":1e3`, 1)},
			{"serviceName missing", `{"accessToken":"a","idToken":"b","expiresIn":1}`},
			{"accessToken missing", `{"serviceName":"testidp","idToken":"b","expiresIn":1}`},
			{"idToken missing", `{"serviceName":"testidp","accessToken":"a","expiresIn":1}`},
			{"expiresIn missing", `{"serviceName":"testidp","accessToken":"a","idToken":"b"}`},
			{"idToken empty", `{"serviceName":"testidp","accessToken":"a","idToken":"","expiresIn":1}`},
			{"accessToken not a string", `{"serviceName":"testidp","accessToken":5,"idToken":"b","expiresIn":1}`},
			{"malformed JSON", `{"serviceName":`},
			{"not an object", `["testidp"]`},
			{"null", `null`},
			{"trailing data", loginBody(service, at, id, 7) + `{}`},
			{"empty body", ``},
		}
		for _, tc := range bodies {
			t.Run(tc.name, func(t *testing.T) {
				code, body := e.do("POST", "/api/v1/login", tc.body)
				wantError(t, code, body, http.StatusBadRequest, "invalid-request")
			})
		}
		t.Run("unknown service", func(t *testing.T) {
			code, body := e.do("POST", "/api/v1/login", loginBody("nope", at, id, 60))
			wantError(t, code, body, http.StatusBadRequest, "unknown-service")
		})
		t.Run("oversized body", func(t *testing.T) {
			big := loginBody(service, at+strings.Repeat("x", 70<<10), id, 60)
			code, body := e.do("POST", "/api/v1/login", big)
			wantError(t, code, body, http.StatusRequestEntityTooLarge, "body-too-large")
		})
		t.Run("provider down", func(t *testing.T) {
			e.idp.SetDown(true)
			defer e.idp.SetDown(false)
			code, body := e.do("POST", "/api/v1/login", loginBody(service, at, id, 60))
			wantError(t, code, body, http.StatusServiceUnavailable, "provider-unavailable")
		})
		t.Run("genuine tokens still work after all that", func(t *testing.T) {
			code, body := e.do("POST", "/api/v1/login", loginBody(service, at, id, 60))
			if code != 200 {
				t.Fatalf("%d %v", code, body)
			}
		})
	})
}

func TestLoginProviderDownAtBoot(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		idp := loginxtest.NewProvider(t)
		idp.SetDown(true)
		e2 := newEnvWithProvider(t, db, idp)
		id, at := idp.Login(alice)
		code, body := e2.do("POST", "/api/v1/login", loginBody(service, at, id, 60))
		wantError(t, code, body, http.StatusServiceUnavailable, "provider-unavailable")
		idp.SetDown(false)
		waitFor(t, func() bool {
			code, _ := e2.do("POST", "/api/v1/login", loginBody(service, at, id, 60))
			return code == 200
		})
	})
}
