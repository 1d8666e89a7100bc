package middleware

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

// fakeChecker answers from fixed grants. err, when set, is returned for
// every question whose subject is in failFor (or for all when failFor is
// nil), to model a store that is down.
type fakeChecker struct {
	perms   map[string]map[string]bool // user -> permission
	roles   map[string]map[string]bool // user -> role
	err     error
	failFor map[string]bool // permission or role names that fail; nil = all
	asked   []string
}

var _ Checker = (*fakeChecker)(nil)

func (f *fakeChecker) fail(name string) error {
	if f.err != nil && (f.failFor == nil || f.failFor[name]) {
		return f.err
	}
	return nil
}

func (f *fakeChecker) UserHasPermission(_ context.Context, user, p string) (bool, error) {
	f.asked = append(f.asked, p)
	if err := f.fail(p); err != nil {
		return true, err // a broken checker saying "true" must still be refused
	}
	return f.perms[user][p], nil
}

func (f *fakeChecker) UserHasRole(_ context.Context, user, role string) (bool, error) {
	f.asked = append(f.asked, "role:"+role)
	if err := f.fail(role); err != nil {
		return true, err
	}
	return f.roles[user][role], nil
}

func newFakeChecker() *fakeChecker {
	return &fakeChecker{
		perms: map[string]map[string]bool{
			"sara": {"cook": true, "laugh": true},
			"jack": {"dance": true, "laugh": true},
		},
		roles: map[string]map[string]bool{
			"sara": {"chef": true},
		},
	}
}

func TestNewGuardConfigErrors(t *testing.T) {
	ch := newFakeChecker()
	res := HeaderResolver("X-User-Id")
	tests := []struct {
		name string
		cfg  GuardConfig
	}{
		{"nil checker", GuardConfig{Resolver: res, Role: "chef"}},
		{"nil resolver", GuardConfig{Checker: ch, Role: "chef"}},
		{"nothing required", GuardConfig{Checker: ch, Resolver: res}},
		{"any and all", GuardConfig{Checker: ch, Resolver: res, AnyPermissions: []string{"a"}, AllPermissions: []string{"b"}}},
		{"any and role", GuardConfig{Checker: ch, Resolver: res, AnyPermissions: []string{"a"}, Role: "chef"}},
		{"all three", GuardConfig{Checker: ch, Resolver: res, AnyPermissions: []string{"a"}, AllPermissions: []string{"b"}, Role: "chef"}},
		{"empty any list", GuardConfig{Checker: ch, Resolver: res, AnyPermissions: []string{}}},
		{"empty all list", GuardConfig{Checker: ch, Resolver: res, AllPermissions: []string{}}},
		{"empty permission name", GuardConfig{Checker: ch, Resolver: res, AnyPermissions: []string{"a", ""}}},
		{"slash in name", GuardConfig{Checker: ch, Resolver: res, AllPermissions: []string{"a/b"}}},
		{"padded name", GuardConfig{Checker: ch, Resolver: res, AllPermissions: []string{" edit"}}},
		{"control char", GuardConfig{Checker: ch, Resolver: res, AnyPermissions: []string{"ed\nit"}}},
		{"invalid utf8", GuardConfig{Checker: ch, Resolver: res, AnyPermissions: []string{"\xff"}}},
		{"129 chars", GuardConfig{Checker: ch, Resolver: res, AnyPermissions: []string{strings.Repeat("é", 129)}}},
		{"padded role", GuardConfig{Checker: ch, Resolver: res, Role: "chef "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := NewGuard(tt.cfg)
			if !errors.Is(err, ErrInvalidGuardConfig) || h != nil {
				t.Errorf("NewGuard = %v, %v; want ErrInvalidGuardConfig", h != nil, err)
			}
		})
	}
	t.Run("128 chars accepted", func(t *testing.T) {
		if _, err := NewGuard(GuardConfig{Checker: ch, Resolver: res, AnyPermissions: []string{strings.Repeat("é", 128)}}); err != nil {
			t.Error(err)
		}
	})
}

func TestGuard(t *testing.T) {
	errStore := errors.New("store down")
	type build func(ch Checker, r Resolver) (gin.HandlerFunc, error)
	cook := func(ch Checker, r Resolver) (gin.HandlerFunc, error) {
		return NewGuard(GuardConfig{Checker: ch, Resolver: r, AnyPermissions: []string{"cook"}})
	}
	cookOrDance := func(ch Checker, r Resolver) (gin.HandlerFunc, error) {
		return NewGuard(GuardConfig{Checker: ch, Resolver: r, AnyPermissions: []string{"cook", "dance"}})
	}
	cookAndLaugh := func(ch Checker, r Resolver) (gin.HandlerFunc, error) {
		return NewGuard(GuardConfig{Checker: ch, Resolver: r, AllPermissions: []string{"cook", "laugh"}})
	}
	chef := func(ch Checker, r Resolver) (gin.HandlerFunc, error) {
		return NewGuard(GuardConfig{Checker: ch, Resolver: r, Role: "chef"})
	}

	tests := []struct {
		name       string
		guard      build
		resolver   Resolver // nil: HeaderResolver("X-User-Id")
		user       string   // X-User-Id
		checkErr   error
		failFor    map[string]bool
		wantStatus int
		wantDetail string
	}{
		{"permission allowed", cook, nil, "sara", nil, nil, 200, ""},
		{"permission denied", cook, nil, "jack", nil, nil, 403, "insufficient permissions"},
		{"unknown user denied", cook, nil, "nobody", nil, nil, 403, "insufficient permissions"},
		{"no user header", cook, nil, "", nil, nil, 401, "authentication required"},
		{"resolver ErrNoUser", cook, func(*gin.Context) (string, error) { return "", ErrNoUser }, "", nil, nil, 401, "authentication required"},
		{"resolver other error hides text", cook, func(*gin.Context) (string, error) { return "sara", errors.New("token expired at 12:00 for sara") }, "", nil, nil, 401, "authentication required"},
		{"resolver empty user nil error", cook, func(*gin.Context) (string, error) { return "", nil }, "", nil, nil, 401, "authentication required"},
		{"resolver unavailable wrapped", cook, func(*gin.Context) (string, error) {
			return "", fmt.Errorf("sessions: %w", ErrResolverUnavailable)
		}, "", nil, nil, 503, "authentication unavailable"},
		{"checker error fails closed", cook, nil, "sara", errStore, nil, 503, "authorization unavailable"},
		{"any: first", cookOrDance, nil, "sara", nil, nil, 200, ""},
		{"any: second", cookOrDance, nil, "jack", nil, nil, 200, ""},
		{"any: none", cookOrDance, nil, "nobody", nil, nil, 403, "insufficient permissions"},
		{"any: error before a grant fails closed", cookOrDance, nil, "jack", errStore, map[string]bool{"cook": true}, 503, "authorization unavailable"},
		{"all: both", cookAndLaugh, nil, "sara", nil, nil, 200, ""},
		{"all: one missing", cookAndLaugh, nil, "jack", nil, nil, 403, "insufficient permissions"},
		{"all: error on second fails closed", cookAndLaugh, nil, "sara", errStore, map[string]bool{"laugh": true}, 503, "authorization unavailable"},
		{"role member", chef, nil, "sara", nil, nil, 200, ""},
		{"role non-member", chef, nil, "jack", nil, nil, 403, "insufficient permissions"},
		{"role error fails closed", chef, nil, "sara", errStore, nil, 503, "authorization unavailable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := newFakeChecker()
			ch.err, ch.failFor = tt.checkErr, tt.failFor
			res := tt.resolver
			if res == nil {
				res = HeaderResolver("X-User-Id")
			}
			g, err := tt.guard(ch, res)
			if err != nil {
				t.Fatal(err)
			}
			handlerRan := false
			r := gin.New()
			r.GET("/g", g, func(c *gin.Context) {
				handlerRan = true
				user, ok := UserFrom(c)
				if !ok || user != tt.user {
					t.Errorf("UserFrom = %q, %v; want %q", user, ok, tt.user)
				}
				Respond(c, http.StatusOK, "ok", user)
			})
			var headers []string
			if tt.user != "" {
				headers = []string{"X-User-Id", tt.user}
			}
			w := performRequest(r, http.MethodGet, "/g", nil, headers...)
			if tt.wantStatus == http.StatusOK {
				if w.Code != http.StatusOK || !handlerRan {
					t.Fatalf("status %d, handler ran %v: %s", w.Code, handlerRan, w.Body)
				}
				return
			}
			assertError(t, w, tt.wantStatus, http.StatusText(tt.wantStatus), tt.wantDetail)
			if handlerRan {
				t.Error("handler ran after a refusal")
			}
			wantChallenge := ""
			if tt.wantStatus == http.StatusUnauthorized {
				wantChallenge = "Bearer"
			}
			if got := w.Header().Get("WWW-Authenticate"); got != wantChallenge {
				t.Errorf("WWW-Authenticate = %q, want %q", got, wantChallenge)
			}
		})
	}
}

func TestGuardShortCircuits(t *testing.T) {
	tests := []struct {
		name      string
		guard     func(Checker, Resolver) (gin.HandlerFunc, error)
		user      string
		wantAsked []string
	}{
		{"any stops at first grant", func(ch Checker, r Resolver) (gin.HandlerFunc, error) {
			return NewGuard(GuardConfig{Checker: ch, Resolver: r, AnyPermissions: []string{"cook", "dance"}})
		}, "sara", []string{"cook"}},
		{"all stops at first denial", func(ch Checker, r Resolver) (gin.HandlerFunc, error) {
			return NewGuard(GuardConfig{Checker: ch, Resolver: r, AllPermissions: []string{"dance", "cook", "laugh"}})
		}, "sara", []string{"dance"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := newFakeChecker()
			g, err := tt.guard(ch, HeaderResolver("X-User-Id"))
			if err != nil {
				t.Fatal(err)
			}
			performRequest(newTestRouter(g), http.MethodGet, "/ok", nil, "X-User-Id", tt.user)
			if fmt.Sprint(ch.asked) != fmt.Sprint(tt.wantAsked) {
				t.Errorf("asked %v, want %v", ch.asked, tt.wantAsked)
			}
		})
	}
}

func TestGuardCopiesNames(t *testing.T) {
	ch := newFakeChecker()
	perms := []string{"cook"}
	g, err := NewGuard(GuardConfig{Checker: ch, Resolver: HeaderResolver("X-User-Id"), AnyPermissions: perms})
	if err != nil {
		t.Fatal(err)
	}
	perms[0] = "dance" // must not loosen or change the live guard
	w := performRequest(newTestRouter(g), http.MethodGet, "/ok", nil, "X-User-Id", "jack")
	assertError(t, w, http.StatusForbidden, "Forbidden", "insufficient permissions")
}

func TestUserFromWithoutGuard(t *testing.T) {
	r := gin.New()
	r.GET("/u", func(c *gin.Context) {
		c.Set("user", "sara")
		if u, ok := UserFrom(c); ok || u != "" {
			t.Errorf("UserFrom = %q, %v without a guard", u, ok)
		}
		c.Status(http.StatusNoContent)
	})
	performRequest(r, http.MethodGet, "/u", nil)
}

// TestGuardConcurrent runs one guard from many goroutines for the race
// detector: a compiled guard must be safe to share.
func TestGuardConcurrent(t *testing.T) {
	ch := mapChecker{"sara": {"cook": {}}}
	g, err := NewGuard(GuardConfig{Checker: ch, Resolver: HeaderResolver("X-User-Id"), AnyPermissions: []string{"cook"}})
	if err != nil {
		t.Fatal(err)
	}
	r := gin.New()
	r.GET("/g", g, func(c *gin.Context) {
		user, _ := UserFrom(c)
		c.String(http.StatusOK, user)
	})
	done := make(chan error)
	for i := range 8 {
		go func() {
			user, want := "sara", http.StatusOK
			if i%2 == 1 {
				user, want = "jack", http.StatusForbidden
			}
			for range 50 {
				w := performRequest(r, http.MethodGet, "/g", nil, "X-User-Id", user)
				if w.Code != want || (want == http.StatusOK && w.Body.String() != user) {
					done <- fmt.Errorf("%s: %d %q", user, w.Code, w.Body)
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
