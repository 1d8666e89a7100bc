package loginx_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// other is the second provider of the two-provider tests.
const other = "otheridp"

// twoProviders is a login service with two real providers: e.idp as
// service (user claim claimA) and the returned one as other (claimB).
// Grants maps RBAC user names to the roles an admin gave them.
func twoProviders(t *testing.T, db *bun.DB, claimA, claimB string, grants map[string][]string) (*env, *loginxtest.Provider, *logBuffer) {
	t.Helper()
	idp2 := loginxtest.NewProvider(t)
	logs := &logBuffer{}
	e := newEnv(t, db, func(cfg *loginx.Config) {
		cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
		cfg.Providers[0].UserClaim = claimA
		p2 := idp2.Config(other)
		p2.UserClaim = claimB
		cfg.Providers = append(cfg.Providers, p2)
		cfg.Roles = func(_ context.Context, username string) ([]string, error) { return grants[username], nil }
	})
	return e, idp2, logs
}

// logBuffer collects log output from several goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// loginAt logs u in at the provider idp configured as serviceName.
func (e *env) loginAt(idp *loginxtest.Provider, serviceName string, u loginxtest.User, opts ...loginxtest.Option) (int, map[string]any) {
	e.t.Helper()
	id, at := idp.Login(u, opts...)
	return e.do("POST", "/api/v1/login", loginBody(serviceName, at, id, 3600))
}

// meAt logs u in at idp and returns the me record; the login must work.
func (e *env) meAt(idp *loginxtest.Provider, serviceName string, u loginxtest.User) map[string]any {
	e.t.Helper()
	code, body := e.loginAt(idp, serviceName, u)
	if code != http.StatusOK {
		e.t.Fatalf("login of %q at %s: %d %v", u.Subject, serviceName, code, body)
	}
	return body["data"].(map[string]any)["me"].(map[string]any)
}

func countUsers(t *testing.T, db *bun.DB) int {
	t.Helper()
	n, err := db.NewSelect().Table("rolegate_login_users").Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

var sara = loginxtest.User{Subject: "sub-sara", PreferredUsername: "sara", Name: "Sara", Email: "sara@example.org", EmailVerified: true}

// Finding 1, default names: a claim that the user sets (preferred_username,
// an e-mail) never gives a user another's RBAC name, whichever provider
// logs in first, and no number of squatters makes the real user's login
// fail.
func TestLoginSquattingDefaultNames(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		saraName := service + ":sub-sara"
		e, idp2, _ := twoProviders(t, db, "", "", map[string][]string{"sara": {"admin"}, saraName: {"editor"}})
		// The attacker logs in first at the other provider, claiming sara
		// in every way a user can.
		squatter := loginxtest.User{Subject: "evil", PreferredUsername: "sara", Email: "sara@example.org", EmailVerified: true}
		me := e.meAt(idp2, other, squatter)
		if me["username"] != other+":evil" || len(me["roles"].([]any)) != 0 {
			t.Fatalf("squatter got %v with roles %v", me["username"], me["roles"])
		}
		// The exhaustion attack: 65 more squatters claiming sara, sara-2, ...
		for i := 1; i <= 65; i++ {
			u := loginxtest.User{Subject: fmt.Sprintf("evil-%d", i), PreferredUsername: fmt.Sprintf("sara-%d", i)}
			if i == 1 {
				u.PreferredUsername = "sara"
			}
			if me := e.meAt(idp2, other, u); me["username"] != fmt.Sprintf("%s:evil-%d", other, i) {
				t.Fatalf("squatter %d got %v", i, me["username"])
			}
		}
		// The real sara's first login works and carries the roles the admin
		// granted to her derived name, and hers alone.
		me = e.meAt(e.idp, service, sara)
		if me["username"] != saraName || fmt.Sprint(me["roles"]) != "[editor]" {
			t.Fatalf("sara got %v with roles %v", me["username"], me["roles"])
		}
		// Stable across logins, whatever the claims say now.
		renamed := sara
		renamed.PreferredUsername, renamed.Email = "someone-else", "else@example.org"
		if me := e.meAt(e.idp, service, renamed); me["username"] != saraName {
			t.Fatalf("second login: %v", me["username"])
		}
	})
}

// Finding 1, claim names: an unverified e-mail is refused (and creates no
// user); a verified one already held by another (service, subject) is a
// 409, never a suffixed name; the holder keeps logging in.
func TestLoginSquattingClaimNames(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		e, idp2, logs := twoProviders(t, db, "email", "email", map[string][]string{"sara@example.org": {"editor"}, "admin@evil.example": {"admin"}})
		// The admin granted editor to sara@example.org before her first login.
		me := e.meAt(e.idp, service, loginxtest.User{Subject: "sub-sara", Email: "Sara@Example.org", EmailVerified: true})
		if me["username"] != "sara@example.org" || fmt.Sprint(me["roles"]) != "[editor]" {
			t.Fatalf("sara got %v with roles %v", me["username"], me["roles"])
		}
		users := countUsers(t, db)
		unverified := []loginxtest.Option{
			loginxtest.Claim("email_verified", false),
			loginxtest.Claim("email_verified", "false"),
			loginxtest.Claim("email_verified", nil),
		}
		for _, opt := range unverified {
			u := loginxtest.User{Subject: "evil", PreferredUsername: "admin", Email: "admin@evil.example"}
			code, body := e.loginAt(idp2, other, u, opt)
			wantError(t, code, body, http.StatusForbidden, "user-claim-refused")
		}
		// No e-mail at all.
		code, body := e.loginAt(idp2, other, loginxtest.User{Subject: "no-mail", PreferredUsername: "sara"})
		wantError(t, code, body, http.StatusForbidden, "user-claim-refused")
		// The e-mail must be verified in the ID token itself: a userinfo
		// answer cannot supply the claim.
		at := idp2.AccessToken(loginxtest.User{Subject: "evil", Email: "admin@evil.example", EmailVerified: true})
		id := idp2.IDToken(loginxtest.User{Subject: "evil"}, at)
		code, body = e.do("POST", "/api/v1/login", loginBody(other, at, id, 3600))
		wantError(t, code, body, http.StatusForbidden, "user-claim-refused")
		// Verified at the other provider, but the name is sara's: 409, many
		// times over, and sara is unharmed.
		for i := 0; i < 10; i++ {
			code, body := e.loginAt(idp2, other, loginxtest.User{Subject: fmt.Sprintf("evil-%d", i), Email: "sara@example.org", EmailVerified: true})
			wantError(t, code, body, http.StatusConflict, "username-taken")
		}
		if l := logs.String(); !strings.Contains(l, "belongs to another account") || !strings.Contains(l, "username=sara@example.org") || !strings.Contains(l, "service="+other) {
			t.Fatalf("the 409 is not logged with its name and provider:\n%.2000s", l)
		}
		if n := countUsers(t, db); n != users {
			t.Fatalf("refused logins created users: %d, want %d", n, users)
		}
		me = e.meAt(e.idp, service, loginxtest.User{Subject: "sub-sara", Email: "sara@example.org", EmailVerified: true})
		if me["username"] != "sara@example.org" {
			t.Fatalf("sara after the attack: %v", me["username"])
		}
	})
}

func TestUserClaimRefusesUserEditableClaims(t *testing.T) {
	idp := loginxtest.NewProvider(t)
	for _, claim := range []string{"preferred_username", "name", "nickname", "email_verified", "sub"} {
		t.Run(claim, func(t *testing.T) { refusedClaim(t, idp, claim) })
	}
	// Provider names end at ':' in derived names, and must leave room for
	// a hashed subject.
	for _, name := range []string{"a:b", strings.Repeat("p", loginx.MaxProviderName+1), "a/b"} {
		pc := idp.Config(name)
		if _, err := loginx.New(context.Background(), storagetest.OpenTarget(t, storagetest.SQLite(t)), loginx.Config{Providers: []loginx.ProviderConfig{pc}, JWTSecret: secret}); err == nil {
			t.Errorf("provider name %q accepted", name)
		}
	}
}

func refusedClaim(t *testing.T, idp *loginxtest.Provider, claim string) {
	pc := idp.Config(service)
	pc.UserClaim = claim
	if _, err := loginx.New(context.Background(), storagetest.OpenTarget(t, storagetest.SQLite(t)), loginx.Config{Providers: []loginx.ProviderConfig{pc}, JWTSecret: secret}); err == nil {
		t.Errorf("UserClaim %q accepted", claim)
	}
	env := map[string]string{"AUTH_OAUTH_PROVIDERS": "x", "AUTH_OAUTH_X_ISSUER": "https://x.example", "AUTH_OAUTH_X_CLIENT_ID": "c", "AUTH_OAUTH_X_USER_CLAIM": claim}
	if _, err := loginx.ProvidersFromEnv(func(k string) string { return env[k] }); err == nil {
		t.Errorf("AUTH_OAUTH_X_USER_CLAIM=%s accepted", claim)
	}
}
