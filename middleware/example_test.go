package middleware_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
)

// grants is a stand-in for authz's per-client handle, which a real host
// app passes as the Checker.
type grants map[string][]string

func (g grants) UserHasPermission(_ context.Context, user, perm string) (bool, error) {
	for _, p := range g[user] {
		if p == perm {
			return true, nil
		}
	}
	return false, nil
}

func (g grants) UserHasRole(context.Context, string, string) (bool, error) { return false, nil }

// The guard engine with a host's own Checker, behind an authenticating
// proxy that sets X-User-Id: one permission guards a route. Handlers read
// the authorised user with UserFrom. (With rolegate's store, a host uses
// authz's RequirePermission and its siblings, which build on this.)
func ExampleNewGuard() {
	gin.SetMode(gin.ReleaseMode)
	checker := grants{"sara": {"cook", "laugh"}, "jack": {"dance", "laugh"}}

	// HeaderResolver trusts X-User-Id: the proxy must overwrite it.
	// A bad permission name or a nil checker is an error here.
	guard, err := middleware.NewGuard(middleware.GuardConfig{
		Checker:        checker,
		Resolver:       middleware.HeaderResolver("X-User-Id"),
		AnyPermissions: []string{"cook"},
	})
	if err != nil {
		panic(err)
	}

	r := gin.New()
	r.POST("/kitchen", guard, func(c *gin.Context) {
		user, _ := middleware.UserFrom(c)
		c.String(http.StatusOK, user+" is cooking")
	})

	for _, user := range []string{"sara", "jack", ""} {
		req := httptest.NewRequest(http.MethodPost, "/kitchen", nil)
		if user != "" {
			req.Header.Set("X-User-Id", user)
		}
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		if w.Code == http.StatusOK {
			fmt.Println(w.Code, w.Body.String())
			continue
		}
		var body middleware.ErrorBody
		_ = json.Unmarshal(w.Body.Bytes(), &body)
		fmt.Printf("%d %s: %s\n", body.Code, body.Message, body.Error)
	}
	// Output:
	// 200 sara is cooking
	// 403 Forbidden: insufficient permissions
	// 401 Unauthorized: authentication required
}
