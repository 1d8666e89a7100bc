package middleware

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/gin-gonic/gin"
)

// scopedFake answers in a scope: scoped[scope][user] holds permissions and
// roles (as "role:" + name); the global answers come from fakeChecker.
type scopedFake struct {
	*fakeChecker
	scoped map[string]map[string][]string
}

var _ ScopedChecker = scopedFake{}

func (f scopedFake) UserHasPermissionIn(ctx context.Context, scope, user, p string) (bool, error) {
	if ok, _ := f.UserHasPermission(ctx, user, p); ok {
		return true, nil
	}
	return slices.Contains(f.scoped[scope][user], p), nil
}

func (f scopedFake) UserHasRoleIn(ctx context.Context, scope, user, role string) (bool, error) {
	if ok, _ := f.UserHasRole(ctx, user, role); ok {
		return true, nil
	}
	return slices.Contains(f.scoped[scope][user], "role:"+role), nil
}

// A guard with Scope asks in the request's scope, refuses an empty scope,
// and logs each refusal at debug level with what was missing.
func TestScopedGuardMiddleware(t *testing.T) {
	ch := scopedFake{fakeChecker: newFakeChecker(), scoped: map[string]map[string][]string{
		"org-42": {"alice": {"read", "role:editor"}},
	}}
	log, buf := captureLog()
	mk := func(cfg GuardConfig) gin.HandlerFunc {
		cfg.Checker, cfg.Resolver, cfg.Logger = ch, HeaderResolver("X-User"), log
		cfg.Scope = func(c *gin.Context) (string, error) { return c.Param("org"), nil }
		g, err := NewGuard(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	r := gin.New()
	ok := func(c *gin.Context) { c.Status(http.StatusOK) }
	r.GET("/orgs/:org/read", mk(GuardConfig{AnyPermissions: []string{"read"}}), ok)
	r.GET("/orgs/:org/edit", mk(GuardConfig{Role: "editor"}), ok)
	r.GET("/noscope/read", mk(GuardConfig{AnyPermissions: []string{"read"}}), ok)
	for _, tc := range []struct {
		path, user string
		want       int
	}{
		{"/orgs/org-42/read", "alice", 200},
		{"/orgs/org-7/read", "alice", 403},
		{"/orgs/org-42/edit", "alice", 200},
		{"/orgs/org-7/edit", "alice", 403},
		{"/orgs/org-7/read", "sara", 403},
		{"/noscope/read", "alice", 403}, // empty scope: refused, never a global-only check
	} {
		if got := performRequest(r, "GET", tc.path, nil, "X-User", tc.user).Code; got != tc.want {
			t.Errorf("GET %s as %s = %d, want %d", tc.path, tc.user, got, tc.want)
		}
	}
	lines := logLines(t, buf)
	if len(lines) != 4 {
		t.Fatalf("%d log records for 4 refusals: %v", len(lines), lines)
	}
	first := lines[0]
	if first["level"] != "DEBUG" || first["msg"] != "guard refused" || first["scope"] != "org-7" ||
		first["user"] != "alice" || len(first["missing"].([]any)) != 1 || first["missing"].([]any)[0] != "read" {
		t.Errorf("refusal record %v", first)
	}
}
