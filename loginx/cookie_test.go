package loginx_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// cookieHost is a login mounted under /auth with the session cookie on,
// and two routes of the host beside it that name the session's user: a
// read and a write.
type cookieHost struct {
	t   *testing.T
	r   *gin.Engine
	idp *loginxtest.Provider
}

func newCookieHost(t *testing.T, db *bun.DB, on bool) *cookieHost {
	t.Helper()
	idp := loginxtest.NewProvider(t)
	svc, err := loginx.New(context.Background(), db, loginx.Config{
		Providers: []loginx.ProviderConfig{idp.Config(service)}, JWTSecret: secret, Logger: quietLogger(),
		LoginAttemptsPerMinute: -1, SessionCookie: on,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	r := gin.New()
	g := r.Group("/auth")
	svc.Register(g)
	who := func(c *gin.Context) {
		u, err := svc.Resolver()(c)
		if err != nil {
			c.String(http.StatusUnauthorized, err.Error())
			return
		}
		c.String(http.StatusOK, u)
	}
	g.GET("/who", who)
	g.POST("/who", who)
	return &cookieHost{t: t, r: r, idp: idp}
}

// send performs a request with the cookies and headers given (name, value
// pairs) and returns the recorder.
func (h *cookieHost) send(method, url, body string, cookies []*http.Cookie, headers ...string) *httptest.ResponseRecorder {
	h.t.Helper()
	req := httptest.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	w := httptest.NewRecorder()
	h.r.ServeHTTP(w, req)
	return w
}

func sessionCookieOf(w *httptest.ResponseRecorder) *http.Cookie {
	for _, c := range w.Result().Cookies() {
		if c.Name == loginx.SessionCookieName {
			return c
		}
	}
	return nil
}

// TestSessionCookie: with the cookie on, a login sets an HttpOnly,
// SameSite=Strict cookie for the mount (Secure over TLS) that the
// resolver accepts; a write it authenticates passes only from the same
// origin (another site, and a sibling origin of the same site, are
// refused); a refresh renews it; logout clears it and the old value stops
// working. Off (the default), no cookie is set and one sent is ignored.
func TestSessionCookie(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		h := newCookieHost(t, db, true)
		id, at := h.idp.Login(alice)
		w := h.send("POST", "https://app.example/auth/api/v1/login", loginBody(service, at, id, 3600), nil)
		if w.Code != http.StatusOK {
			t.Fatalf("login: %d %s", w.Code, w.Body)
		}
		ck := sessionCookieOf(w)
		if ck == nil {
			t.Fatalf("login set no session cookie: %v", w.Header()["Set-Cookie"])
		}
		if !ck.HttpOnly || !ck.Secure || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/auth/" || ck.MaxAge != 24*3600 {
			t.Errorf("cookie %q: want HttpOnly, Secure (TLS), SameSite=Strict, Path=/auth/, Max-Age=86400", w.Header().Get("Set-Cookie"))
		}
		if !strings.Contains(w.Body.String(), ck.Value) {
			t.Errorf("the cookie does not hold the answer's authToken")
		}
		plain := h.send("POST", "/auth/api/v1/login", loginBody(service, at, id, 3600), nil)
		if c := sessionCookieOf(plain); c == nil || c.Secure {
			t.Errorf("over plain HTTP the cookie must not be Secure: %v", plain.Header()["Set-Cookie"])
		}
		jar := []*http.Cookie{{Name: ck.Name, Value: ck.Value}}

		if w := h.send("GET", "/auth/who", "", jar); w.Code != http.StatusOK || w.Body.String() != aliceName {
			t.Errorf("GET with the cookie: %d %q, want %s", w.Code, w.Body, aliceName)
		}
		for _, c := range []struct {
			name    string
			headers []string
			want    int
		}{
			{"same origin", []string{"Sec-Fetch-Site", "same-origin", "Origin", "http://example.com"}, http.StatusOK},
			{"no browser", nil, http.StatusOK},
			{"another site", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusUnauthorized},
			{"a sibling origin", []string{"Sec-Fetch-Site", "same-site"}, http.StatusUnauthorized},
			{"another origin, old browser", []string{"Origin", "http://evil.example"}, http.StatusUnauthorized},
		} {
			w := h.send("POST", "/auth/who", "", jar, c.headers...)
			if w.Code != c.want {
				t.Errorf("%s: POST with the cookie: %d %q, want %d", c.name, w.Code, w.Body, c.want)
			}
			if c.want != http.StatusOK && !strings.Contains(w.Body.String(), "cross-site request refused") {
				t.Errorf("%s: refusal %q does not say why", c.name, w.Body)
			}
		}
		// A Bearer token is not the browser's own: no origin check.
		tok := ck.Value
		if w := h.send("POST", "/auth/who", "", nil, "Authorization", "Bearer "+tok, "Sec-Fetch-Site", "cross-site"); w.Code != http.StatusOK {
			t.Errorf("a Bearer write from anywhere: %d %q", w.Code, w.Body)
		}

		// Refresh renews the cookie.
		var refresh string
		if m := decode(t, plain.Body.Bytes()); m != nil {
			refresh, _ = m["data"].(map[string]any)["refreshToken"].(string)
		}
		rw := h.send("POST", "/auth/api/v1/token/refresh", `{"refreshToken":"`+refresh+`"}`, nil)
		if rw.Code != http.StatusOK || sessionCookieOf(rw) == nil || sessionCookieOf(rw).Value == "" {
			t.Errorf("refresh: %d, cookie %v", rw.Code, rw.Header()["Set-Cookie"])
		}

		// Logout by the cookie clears it, and ends the session.
		lw := h.send("POST", "/auth/api/v1/logout", "", jar, "Sec-Fetch-Site", "same-origin")
		if lw.Code != http.StatusOK {
			t.Fatalf("logout: %d %s", lw.Code, lw.Body)
		}
		if c := sessionCookieOf(lw); c == nil || c.MaxAge >= 0 || c.Value != "" {
			t.Errorf("logout does not clear the cookie: %v", lw.Header()["Set-Cookie"])
		}
		if w := h.send("GET", "/auth/who", "", jar); w.Code != http.StatusUnauthorized {
			t.Errorf("the logged-out cookie still works: %d %q", w.Code, w.Body)
		}

		off := newCookieHost(t, db, false)
		id, at = off.idp.Login(alice)
		ow := off.send("POST", "/auth/api/v1/login", loginBody(service, at, id, 3600), nil)
		if ow.Code != http.StatusOK || len(ow.Result().Cookies()) != 0 {
			t.Errorf("cookie off: login %d set %v", ow.Code, ow.Header()["Set-Cookie"])
		}
		tok = decode(t, ow.Body.Bytes())["data"].(map[string]any)["authToken"].(string)
		if w := off.send("GET", "/auth/who", "", []*http.Cookie{{Name: loginx.SessionCookieName, Value: tok}}); w.Code != http.StatusUnauthorized {
			t.Errorf("cookie off: a cookie was accepted: %d %q", w.Code, w.Body)
		}
	})
}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}
