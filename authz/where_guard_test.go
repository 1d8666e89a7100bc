package authz

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestWhereCanOfTheRequest: a handler asks Authz.WhereCan for the user a
// guard admitted, or, unguarded, the one the resolver finds; no user is
// ErrNoUser; without a host key, ErrNoClientKey.
func TestWhereCanOfTheRequest(t *testing.T) {
	key := newKey()
	az := openTarget(t, storagetest.SQLite(t), func(c *Config) {
		c.ClientKey = key
		c.Resolver = middleware.HeaderResolver("X-User")
	})
	whereSetup(t, mustHost(t, az))
	answer := func(c *gin.Context) {
		w, err := az.WhereCan(c, "read")
		switch {
		case errors.Is(err, ErrNoUser):
			c.Status(http.StatusUnauthorized)
		case err != nil:
			c.Status(http.StatusServiceUnavailable)
		default:
			c.JSON(http.StatusOK, w)
		}
	}
	r := gin.New()
	r.GET("/guarded", az.RequirePermission("read", ScopeFromQuery("org")), answer)
	r.GET("/open", answer)
	for _, tc := range []struct {
		path, user string
		status     int
		body       string
	}{
		{"/guarded?org=org-2", "alice", 200, `{"global":false,"scopes":["org-1","org-2","org-3"]}`},
		{"/guarded?org=org-9", "alice", 403, ""},
		{"/open", "alice", 200, `{"global":false,"scopes":["org-1","org-2","org-3"]}`},
		{"/open", "bob", 200, `{"global":true,"scopes":[]}`},
		{"/open", "nobody", 200, `{"global":false,"scopes":[]}`},
		{"/open", "", 401, ""},
	} {
		req := httptest.NewRequest(http.MethodGet, tc.path, nil)
		if tc.user != "" {
			req.Header.Set("X-User", tc.user)
		}
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		if w.Code != tc.status {
			t.Errorf("%s as %q: %d, want %d", tc.path, tc.user, w.Code, tc.status)
			continue
		}
		if tc.body != "" && !jsonEqual(w.Body.Bytes(), tc.body) {
			t.Errorf("%s as %q: %s, want %s", tc.path, tc.user, w.Body.String(), tc.body)
		}
	}

	bare := openTarget(t, storagetest.SQLite(t), nil)
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest(http.MethodGet, "/", nil)
	if _, err := bare.WhereCan(c, "read"); !errors.Is(err, ErrNoClientKey) {
		t.Errorf("without a host key: %v", err)
	}
}

func jsonEqual(a []byte, b string) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
