package authz

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestScopedGuard: a guard taking its scope from the URL admits a member
// of that scope and a global member, refuses a member of another scope
// (403, logged at debug with the missing permission), follows inheritance,
// and follows a scoped membership removed. On both databases.
func TestScopedGuard(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		key := newKey()
		az, logs := openREST(t, target, func(c *Config) {
			c.ClientKey = key
			c.Resolver = middleware.HeaderResolver("X-User")
		})
		ctx := context.Background()
		c := mustClient(t, az, key)
		for _, step := range []func() (bool, error){
			func() (bool, error) { return c.AddRole(ctx, "viewer", "") },
			func() (bool, error) { return c.AddRole(ctx, "editor", "") },
			func() (bool, error) { return c.AddPermission(ctx, "viewer", "read") },
			func() (bool, error) { return c.AddInheritance(ctx, "editor", "viewer") },
			func() (bool, error) { return c.AddMembershipIn(ctx, "org-42", "alice", "editor") },
			func() (bool, error) { return c.AddMembership(ctx, "sara", "viewer") },
		} {
			if _, err := step(); err != nil {
				t.Fatal(err)
			}
		}
		e := gin.New()
		e.GET("/orgs/:org/notes", az.RequirePermission("read", ScopeFromParam("org")), func(c *gin.Context) {
			user, _ := middleware.UserFrom(c)
			c.String(http.StatusOK, user)
		})
		e.GET("/notes", az.RequirePermission("read"), func(c *gin.Context) { c.Status(http.StatusOK) })
		get := func(path, user string) int {
			return performRequest(e, "GET", path, "", nil, "X-User", user).Code
		}
		for _, tc := range []struct {
			path, user string
			want       int
		}{
			{"/orgs/org-42/notes", "alice", 200},
			{"/orgs/org-7/notes", "alice", 403},
			{"/notes", "alice", 403}, // no global membership
			{"/orgs/org-7/notes", "sara", 200},
			{"/orgs/org-42/notes", "sara", 200},
			{"/orgs/org-42/notes", "", 401},
		} {
			if got := get(tc.path, tc.user); got != tc.want {
				t.Errorf("GET %s as %q = %d, want %d", tc.path, tc.user, got, tc.want)
			}
		}
		if !strings.Contains(logs.String(), "guard refused") || !strings.Contains(logs.String(), "missing=[read]") ||
			!strings.Contains(logs.String(), "scope=org-7") {
			t.Errorf("no debug record of the refusal with the missing permission:\n%s", logs)
		}
		if _, err := c.DelMembershipIn(ctx, "org-42", "alice", "editor"); err != nil {
			t.Fatal(err)
		}
		if got := get("/orgs/org-42/notes", "alice"); got != 403 {
			t.Errorf("after the scoped membership went: %d, want 403", got)
		}
	})
}

// A scoped guard needs a checker that answers in a scope.
func TestScopedGuardNeedsScopedChecker(t *testing.T) {
	_, err := middleware.NewGuard(middleware.GuardConfig{
		Checker: plainChecker{}, Resolver: middleware.HeaderResolver("X-User"),
		AnyPermissions: []string{"read"}, Scope: func(*gin.Context) (string, error) { return "x", nil },
	})
	if err == nil {
		t.Fatal("NewGuard accepted Scope with a checker that cannot answer in a scope")
	}
}

type plainChecker struct{}

func (plainChecker) UserHasPermission(context.Context, string, string) (bool, error) {
	return true, nil
}
func (plainChecker) UserHasRole(context.Context, string, string) (bool, error) { return true, nil }
