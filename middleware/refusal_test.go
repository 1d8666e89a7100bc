package middleware

import (
	"errors"
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"
)

// TestGuardRefusalHook: a host's RefusalFunc writes every refusal in its
// own shape ({"errors": {...}}), and the guard's status stands even when
// the hook asks for another.
func TestGuardRefusalHook(t *testing.T) {
	hostShape := func(c *gin.Context, r Refusal) {
		c.JSON(http.StatusTeapot, gin.H{"errors": gin.H{"auth": r.Reason}}) // 418 must not leak out
	}
	down := func(c *gin.Context) (string, error) { return "", ErrResolverUnavailable }
	tests := []struct {
		name     string
		resolver Resolver
		user     string
		checkErr error
		status   int
		reason   string
	}{
		{"no user", nil, "", nil, 401, "authentication required"},
		{"not allowed", nil, "jack", nil, 403, "insufficient permissions"},
		{"store down", nil, "sara", errors.New("down"), 503, "authorization unavailable"},
		{"resolver down", down, "sara", nil, 503, "authentication unavailable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := newFakeChecker()
			ch.err = tt.checkErr
			res := tt.resolver
			if res == nil {
				res = HeaderResolver("X-User-Id")
			}
			g, err := NewGuard(GuardConfig{Checker: ch, Resolver: res, AnyPermissions: []string{"cook"}, OnRefusal: hostShape})
			if err != nil {
				t.Fatal(err)
			}
			w := performRequest(newTestRouter(g), http.MethodGet, "/ok", nil, "X-User-Id", tt.user)
			if w.Code != tt.status {
				t.Fatalf("status = %d, want %d; body %s", w.Code, tt.status, w.Body)
			}
			if want := `{"errors":{"auth":"` + tt.reason + `"}}`; w.Body.String() != want {
				t.Errorf("body = %s, want %s", w.Body, want)
			}
			if tt.status == 401 && w.Header().Get("WWW-Authenticate") != "Bearer" {
				t.Errorf("401 without a challenge")
			}
		})
	}
	t.Run("allowed requests never see the hook", func(t *testing.T) {
		called := false
		g := mustNewGuard(GuardConfig{Checker: newFakeChecker(), Resolver: HeaderResolver("X-User-Id"), AnyPermissions: []string{"cook"},
			OnRefusal: func(*gin.Context, Refusal) { called = true }})
		w := performRequest(newTestRouter(g), http.MethodGet, "/ok", nil, "X-User-Id", "sara")
		if w.Code != 200 || called {
			t.Errorf("status %d, hook called %v", w.Code, called)
		}
	})
	t.Run("a hook writing nothing gets the envelope", func(t *testing.T) {
		g := mustNewGuard(GuardConfig{Checker: newFakeChecker(), Resolver: HeaderResolver("X-User-Id"), AnyPermissions: []string{"cook"},
			OnRefusal: func(*gin.Context, Refusal) {}})
		w := performRequest(newTestRouter(g), http.MethodGet, "/ok", nil, "X-User-Id", "jack")
		assertError(t, w, http.StatusForbidden, "Forbidden", "insufficient permissions")
	})
}

// TestUserFromNilPointer: a nil *string stored under the user key (an
// interner that answered nil past the guard's check) reads as no user
// instead of panicking. Before the fix UserFrom dereferenced it first.
func TestUserFromNilPointer(t *testing.T) {
	r := gin.New()
	r.GET("/u", func(c *gin.Context) {
		c.Set(userCtx, (*string)(nil))
		u, ok := UserFrom(c)
		if ok || u != "" {
			t.Errorf("UserFrom = %q, %v; want none", u, ok)
		}
		c.Status(http.StatusNoContent)
	})
	if w := performRequest(r, http.MethodGet, "/u", nil); w.Code != http.StatusNoContent {
		t.Errorf("status %d (panic?)", w.Code)
	}
}
