package loginx_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
)

const (
	service = "testidp"
	secret  = "0123456789abcdef0123456789abcdef-test-secret"
)

func init() { gin.SetMode(gin.TestMode) }

// env is a login service on a real engine against a real provider.
type env struct {
	t   testing.TB
	db  *bun.DB
	svc *loginx.Service
	r   *gin.Engine
	idp *loginxtest.Provider
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newEnv(t testing.TB, db *bun.DB, mut ...func(*loginx.Config)) *env {
	t.Helper()
	return newEnvWithProvider(t, db, loginxtest.NewProvider(t), mut...)
}

func newEnvWithProvider(t testing.TB, db *bun.DB, idp *loginxtest.Provider, mut ...func(*loginx.Config)) *env {
	t.Helper()
	cfg := loginx.Config{
		Providers: []loginx.ProviderConfig{idp.Config(service)},
		JWTSecret: secret,
		Roles: func(_ context.Context, username string) ([]string, error) {
			return []string{"member-of-" + username}, nil
		},
		Logger:                 quietLogger(),
		RevocationPollInterval: 20 * time.Millisecond,
		LoginAttemptsPerMinute: -1, // tests log in often from one address
	}
	for _, m := range mut {
		m(&cfg)
	}
	svc, err := loginx.New(context.Background(), db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	r := gin.New()
	svc.Register(r)
	r.GET("/whoami", func(c *gin.Context) {
		u, err := svc.Resolver()(c)
		if err != nil {
			c.String(http.StatusUnauthorized, "no user")
			return
		}
		c.String(http.StatusOK, u)
	})
	return &env{t: t, db: db, svc: svc, r: r, idp: idp}
}

// do performs a request; headers come in name, value pairs.
func (e *env) do(method, path, body string, headers ...string) (int, map[string]any) {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	e.r.ServeHTTP(w, req)
	var out map[string]any
	if w.Body.Len() > 0 && strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			e.t.Fatalf("%s %s: body %q is not JSON: %v", method, path, w.Body.String(), err)
		}
	}
	return w.Code, out
}

func loginBody(svc, access, id string, expiresIn any) string {
	b, _ := json.Marshal(map[string]any{"serviceName": svc, "accessToken": access, "idToken": id, "expiresIn": expiresIn})
	return string(b)
}

// login logs u in and returns the status and body.
func (e *env) login(u loginxtest.User, opts ...loginxtest.Option) (int, map[string]any) {
	e.t.Helper()
	id, at := e.idp.Login(u, opts...)
	return e.do("POST", "/api/v1/login", loginBody(service, at, id, 3600))
}

// mustLogin logs u in and returns the data object.
func (e *env) mustLogin(u loginxtest.User) map[string]any {
	e.t.Helper()
	code, body := e.login(u)
	if code != http.StatusOK || body["status"] != "success" {
		e.t.Fatalf("login of %q: %d %v", u.Subject, code, body)
	}
	return body["data"].(map[string]any)
}

// wantError checks an error answer.
func wantError(t testing.TB, code int, body map[string]any, wantCode int, wantErr string) {
	t.Helper()
	if code != wantCode {
		t.Fatalf("status %d, want %d (body %v)", code, wantCode, body)
	}
	if body["status"] != "error" || body["error"] != wantErr {
		t.Fatalf("body %v, want status error and error %q", body, wantErr)
	}
	if m, _ := body["message"].(string); m == "" {
		t.Fatalf("body %v has no message", body)
	}
	if len(body) != 3 {
		t.Fatalf("body %v has fields beyond status, error, message", body)
	}
}

func bearer(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

// aliceName is alice's RBAC user name: derived from provider and subject.
const aliceName = service + ":sub-alice"

var alice = loginxtest.User{
	Subject: "sub-alice", PreferredUsername: "alice", Name: "Alice Liddell",
	Email: "alice@example.org", EmailVerified: true, Picture: "https://example.org/alice.png", Zoneinfo: "UTC",
}

// waitFor polls cond until it holds or five seconds pass.
func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// with returns e reporting to t (inside fuzz targets, which must not use
// the F).
func (e *env) with(t testing.TB) *env {
	cp := *e
	cp.t = t
	return &cp
}
