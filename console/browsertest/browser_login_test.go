package browsertest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
)

// loginHost is a host app whose people log in through rolegate's own
// token-exchange login, with the session cookie on (AUTH_LOGIN_COOKIE).
type loginHost struct {
	url  string // the console
	host *authz.Client
	idp  *loginxtest.Provider
	// cookieWrites counts the writes to the admin API that arrived
	// carrying the session cookie.
	cookieWrites atomic.Int64
}

func newLoginHostApp(t *testing.T) *loginHost {
	t.Helper()
	gin.SetMode(gin.ReleaseMode)
	idp := loginxtest.NewProvider(t)
	cfg := authz.DefaultConfig()
	cfg.SQLitePath = filepath.Join(t.TempDir(), "auth.sqlite3")
	cfg.ClientKey = adminKey
	cfg.AdminUsers = true
	cfg.OAuthProviders = []loginx.ProviderConfig{idp.Config("idp")}
	cfg.Login = loginx.Start
	cfg.LoginCookie = true
	cfg.JWTSecretKey = "0123456789abcdef0123456789abcdef-browser"
	cfg.Logger = slog.New(slog.DiscardHandler)
	r, host := mountWithAdmin(t, cfg, "idp:sub-boss")
	h := &loginHost{host: host, idp: idp}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodPost && strings.HasPrefix(req.URL.Path, "/auth/api/role/") {
			if _, err := req.Cookie(loginx.SessionCookieName); err == nil {
				h.cookieWrites.Add(1)
			}
		}
		r.ServeHTTP(w, req)
	})}}
	srv.Start()
	t.Cleanup(srv.Close)
	h.url = srv.URL + "/auth/console/"
	return h
}

// logIn sends the login's token exchange from the page, as the host's own
// front end would after the provider's redirect: the answer sets the
// session cookie.
func logIn(h *loginHost, u loginxtest.User) step {
	id, at := h.idp.Login(u)
	body, _ := json.Marshal(map[string]any{"serviceName": "idp", "accessToken": at, "idToken": id, "expiresIn": 3600})
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`fetch('../api/v1/login', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: %q})
		.then(r => { if (!r.ok) throw new Error('login ' + r.status); })`, body), chromedp.EvalAwaitPromise)
}

// TestConsoleLoginCookie: a person who logged in through the host's
// login (rolegate's token exchange against an OIDC provider) opens the
// console signed in, by the session cookie alone: no key, no token in the
// page's storage; the cookie is HttpOnly. Her writes work from the
// console. A form on another site, and one on a sibling origin of the
// same site (another port of 127.0.0.1, which does get the SameSite
// cookie), posting to the admin API with the cookie are refused and
// store nothing.
func TestConsoleLoginCookie(t *testing.T) {
	exe := chromiumPath(t)
	h := newLoginHostApp(t)
	ctx := context.Background()
	b := newBrowser(t, exe)
	boss := loginxtest.User{Subject: "sub-boss", Name: "Boss"}
	b.run(t, "not signed in yet", chromedp.Navigate(h.url), chromedp.WaitVisible(chromedp.CSS("#client-key")))
	b.run(t, "log in through the login, then open the console",
		logIn(h, boss), chromedp.Navigate(h.url),
		waitText("#signed-in-as", "Signed in as idp:sub-boss"), waitText("#roles-list", "admins"))
	if got := value[string](t, b, `document.cookie + '|' + JSON.stringify(sessionStorage) + '|' + JSON.stringify(localStorage)`); got != `|{}|{}` {
		t.Errorf("the page can read a credential: %q (the cookie must be HttpOnly, the console keeps no token)", got)
	}
	b.run(t, "a write through the cookie",
		fill("new-role", "viewer"), submit("new-role"), waitText("#roles-list", "viewer"))
	if h.cookieWrites.Load() != 1 {
		t.Errorf("the console's write arrived with the cookie %d times, want 1", h.cookieWrites.Load())
	}
	recs, err := h.host.AuditRecordsWhere(ctx, authz.AuditQuery{Action: "add_role", Actor: "user:idp:sub-boss"})
	if err != nil || len(recs) != 1 {
		t.Errorf("the audit of the console's write: %+v %v", recs, err)
	}

	target := strings.TrimSuffix(h.url, "console/") + "api/role/evil"
	form := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><form id="f" method="post" action=%q></form><script>document.getElementById('f').submit()</script>`, target)
	})
	evil := httptest.NewServer(form) // 127.0.0.1, another port: same site, another origin
	t.Cleanup(evil.Close)
	before := h.cookieWrites.Load()
	b.run(t, "a form on a sibling origin posts with the cookie", chromedp.Navigate(evil.URL),
		waitText("body", "cross-site request refused"))
	if h.cookieWrites.Load() != before+1 {
		t.Errorf("the sibling origin's post did not carry the cookie (SameSite lets it): the test proves nothing")
	}
	b.run(t, "a form on another site posts", chromedp.Navigate(strings.Replace(evil.URL, "127.0.0.1", "localhost", 1)),
		waitText("body", "cross-site request refused"))
	if r, err := h.host.GetRole(ctx, "evil"); !errors.Is(err, authz.ErrRoleNotFound) {
		t.Errorf("a cross-site post created %+v (%v)", r, err)
	}
}
