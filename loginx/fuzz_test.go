package loginx_test

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// FuzzLoginBody: no request body makes login answer 5xx or panic.
func FuzzLoginBody(f *testing.F) {
	f.Add(`{"serviceName":"testidp","accessToken":"a","idToken":"b","expiresIn":1}`)
	f.Add(`{"serviceName":"testidp","accessToken":"a","idToken":"b.c.d","expiresIn":1.5,"scope":null}`)
	f.Add(`{"serviceName":"nope","accessToken":"","idToken":"","expiresIn":"1"}`)
	f.Add(`[]`)
	f.Add(`null`)
	f.Add(`{"expiresIn":99999999999999999999999}`)
	f.Add(`{"serviceName":"testidp","accessToken":"a","idToken":"eyJhbGciOiJub25lIn0.e30.","expiresIn":1}`)
	db := storagetest.OpenTarget(f, storagetest.SQLite(f))
	e := newEnv(f, db)
	id, at := e.idp.Login(loginxtest.User{Subject: "fuzz", PreferredUsername: "fuzz"})
	f.Add(loginBody(service, at, id, 60))
	f.Fuzz(func(t *testing.T, body string) {
		code, out := e.with(t).do("POST", "/api/v1/login", body)
		if code >= 500 {
			t.Fatalf("body %q: %d %v", body, code, out)
		}
		if code != 200 && (out["status"] != "error" || out["error"] == "") {
			t.Fatalf("body %q: %d with %v", body, code, out)
		}
	})
}

// FuzzSessionToken: no token string panics, and none is accepted unless
// it is a genuine token.
func FuzzSessionToken(f *testing.F) {
	// A secret of this process only: fuzz workers each log in on their
	// own, so only their own token is genuine to them.
	sec, _ := randomHex(24)
	db := storagetest.OpenTarget(f, storagetest.SQLite(f))
	e := newEnv(f, db, func(c *loginx.Config) { c.JWTSecret = sec })
	genuine := e.mustLogin(alice)["authToken"].(string)
	f.Add(genuine)
	f.Add(genuine[:len(genuine)-1])
	f.Add(strings.Replace(genuine, ".", "..", 1))
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	f.Add("")
	f.Fuzz(func(t *testing.T, tok string) {
		u, err := resolve(e.svc, "Authorization", "Bearer "+tok)
		if err == nil && strings.TrimSpace(tok) != genuine {
			t.Fatalf("accepted a token that is not genuine: %q as %q", tok, u)
		}
		u, err = resolve(e.svc, "X-Auth-Token", tok, "X-User-Id", "x")
		if err == nil {
			t.Fatalf("accepted with a wrong X-User-Id: %q as %q", tok, u)
		}
	})
}

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	_, err := rand.Read(b)
	return hex.EncodeToString(b), err
}
