package middleware

import (
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"
)

func newRoutingRouter(noRoute, noMethod gin.HandlerFunc) *gin.Engine {
	r := gin.New()
	r.HandleMethodNotAllowed = true
	ok := func(c *gin.Context) { c.String(http.StatusOK, "ok") }
	r.GET("/api/roles", ok)
	r.GET("/home", ok)
	if noRoute != nil {
		r.NoRoute(noRoute)
	}
	if noMethod != nil {
		r.NoMethod(noMethod)
	}
	return r
}

func TestNotFoundAndMethodNotAllowed(t *testing.T) {
	r := newRoutingRouter(NotFound(), MethodNotAllowed())
	t.Run("404", func(t *testing.T) {
		w := performRequest(r, http.MethodGet, "/nope?x=1", nil)
		assertError(t, w, http.StatusNotFound, "Not Found", "route not found")
	})
	t.Run("405", func(t *testing.T) {
		w := performRequest(r, http.MethodPut, "/api/roles", nil)
		assertError(t, w, http.StatusMethodNotAllowed, "Method Not Allowed", "method not allowed for this route")
		if got := w.Header().Get("Allow"); got != "GET" {
			t.Errorf("Allow = %q", got)
		}
	})
}

func TestNotFoundUnder(t *testing.T) {
	hostNotFound := func(c *gin.Context) { c.String(http.StatusNotFound, "host 404") }
	tests := []struct {
		name     string
		prefix   string
		fallback gin.HandlerFunc
		path     string
		wantEnv  bool
		wantBody string // when not the envelope
	}{
		{"under prefix", "/api", nil, "/api/nope", true, ""},
		{"prefix itself", "/api", nil, "/api", true, ""},
		{"prefix with slash", "/api/", nil, "/api/x/y", true, ""},
		{"deep under", "/api", nil, "/api/v1/unknown/thing", true, ""},
		{"sibling is not under", "/api", nil, "/apix", false, "404 page not found"},
		{"elsewhere gin default", "/api", nil, "/other", false, "404 page not found"},
		{"elsewhere host fallback", "/api", hostNotFound, "/other", false, "host 404"},
		{"root prefix covers all", "/", hostNotFound, "/other", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRoutingRouter(NotFoundUnder(tt.prefix, tt.fallback), nil)
			w := performRequest(r, http.MethodGet, tt.path, nil)
			if tt.wantEnv {
				assertError(t, w, http.StatusNotFound, "Not Found", "route not found")
				return
			}
			if w.Code != http.StatusNotFound || w.Body.String() != tt.wantBody {
				t.Errorf("got %d %q, want 404 %q", w.Code, w.Body, tt.wantBody)
			}
		})
	}
}

func TestMethodNotAllowedUnder(t *testing.T) {
	tests := []struct {
		name     string
		path     string
		wantEnv  bool
		wantBody string
	}{
		{"under prefix", "/api/roles", true, ""},
		{"elsewhere gin default", "/home", false, "405 method not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRoutingRouter(nil, MethodNotAllowedUnder("/api", nil))
			w := performRequest(r, http.MethodPost, tt.path, nil)
			if got := w.Header().Get("Allow"); got != "GET" {
				t.Errorf("Allow = %q", got)
			}
			if tt.wantEnv {
				assertError(t, w, http.StatusMethodNotAllowed, "Method Not Allowed", "method not allowed for this route")
				return
			}
			if w.Code != http.StatusMethodNotAllowed || w.Body.String() != tt.wantBody {
				t.Errorf("got %d %q", w.Code, w.Body)
			}
		})
	}
}
