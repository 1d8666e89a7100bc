package authz

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

func headerUser(c *gin.Context) (string, error) {
	if u := c.GetHeader("X-User"); u != "" {
		return u, nil
	}
	return "", middleware.ErrNoUser
}

func get(r http.Handler, path, user string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if user != "" {
		req.Header.Set("X-User", user)
	}
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	return w
}

// TestClientGuardsEveryKind: with ForClient, every guard kind checks under
// that client's key only, and needs no host client key.
func TestClientGuardsEveryKind(t *testing.T) {
	az := openTarget(t, storagetest.SQLite(t), func(cfg *Config) { cfg.Resolver = headerUser })
	ctx := context.Background()
	c, other := mustClient(t, az, newKey()), mustClient(t, az, newKey())
	for _, cl := range []*Client{c, other} {
		cl.AddRole(ctx, "reader", "")
		cl.AddPermission(ctx, "reader", "read")
	}
	c.AddRole(ctx, "editor", "")
	c.AddPermission(ctx, "editor", "edit")
	c.AddPermission(ctx, "editor", "read")
	must(t)(c.AddMembership(ctx, "sara", "editor"))
	must(t)(c.AddMembership(ctx, "jack", "reader"))
	must(t)(other.AddMembership(ctx, "mallory", "reader")) // another key's member

	r := gin.New()
	ok := func(c *gin.Context) { c.Status(http.StatusOK) }
	r.GET("/perm", az.RequirePermission("edit", ForClient(c)), ok)
	r.GET("/any", az.RequireAnyPermission([]string{"edit", "read"}, ForClient(c)), ok)
	r.GET("/all", az.RequireAllPermissions([]string{"edit", "read"}, ForClient(c)), ok)
	r.GET("/role", az.RequireRole("reader", ForClient(c)), ok)
	for _, tc := range []struct {
		path, user string
		want       int
	}{
		{"/perm", "sara", 200}, {"/perm", "jack", 403}, {"/perm", "", 401},
		{"/any", "jack", 200}, {"/any", "mallory", 403},
		{"/all", "sara", 200}, {"/all", "jack", 403},
		{"/role", "jack", 200}, {"/role", "sara", 403}, {"/role", "mallory", 403},
	} {
		if w := get(r, tc.path, tc.user); w.Code != tc.want {
			t.Errorf("%s as %q: %d, want %d", tc.path, tc.user, w.Code, tc.want)
		}
	}
	if p := recoverPanic(func() { az.RequireRole("", ForClient(c)) }); !strings.Contains(p, "empty role") {
		t.Errorf("RequireRole(\"\") panicked with %q", p)
	}
}

func must(t *testing.T) func(bool, error) {
	return func(_ bool, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestRefusalHook: Config.OnRefusal writes every guard's refusal in the
// host's shape; a guard's own OnRefusal option overrides it; the status is
// rolegate's.
func TestRefusalHook(t *testing.T) {
	hostShape := func(c *gin.Context, r Refusal) {
		c.JSON(r.Status, gin.H{"errors": gin.H{"auth": r.Reason}})
	}
	az := openTarget(t, storagetest.SQLite(t), func(cfg *Config) {
		cfg.ClientKey = newKey()
		cfg.Resolver = headerUser
		cfg.OnRefusal = hostShape
	})
	ctx := context.Background()
	host := mustHost(t, az)
	host.AddRole(ctx, "editor", "")
	host.AddPermission(ctx, "editor", "edit")
	must(t)(host.AddMembership(ctx, "sara", "editor"))

	r := gin.New()
	ok := func(c *gin.Context) { c.Status(http.StatusOK) }
	r.GET("/edit", az.RequirePermission("edit"), ok)
	r.GET("/own", az.RequirePermission("edit", OnRefusal(func(c *gin.Context, r Refusal) {
		c.String(http.StatusOK, "own %d", r.Status) // asks for 200: the guard's status stands
	})), ok)
	for _, tc := range []struct {
		path, user string
		status     int
		body       string
	}{
		{"/edit", "sara", 200, ""},
		{"/edit", "jack", 403, `{"errors":{"auth":"insufficient permissions"}}`},
		{"/edit", "", 401, `{"errors":{"auth":"authentication required"}}`},
		{"/own", "jack", 403, "own 403"},
	} {
		w := get(r, tc.path, tc.user)
		if w.Code != tc.status || w.Body.String() != tc.body {
			t.Errorf("%s as %q: %d %s, want %d %s", tc.path, tc.user, w.Code, w.Body, tc.status, tc.body)
		}
	}
}

// TestDefaultRole: with Config.DefaultRole every user the guards resolve
// becomes a member on first sight (so one grant to the role covers
// everyone), and AddMemberships backfills users who existed before, on
// both stores.
func TestDefaultRole(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, func(cfg *Config) {
			cfg.ClientKey = newKey()
			cfg.Resolver = headerUser
			cfg.DefaultRole = "member"
		})
		ctx := context.Background()
		host := mustHost(t, az)
		// Open created the role: a grant to it needs no AddRole.
		must(t)(host.AddPermission(ctx, "member", "read"))

		r := gin.New()
		r.GET("/read", az.RequirePermission("read"), func(c *gin.Context) { c.Status(http.StatusOK) })
		if w := get(r, "/read", "newcomer"); w.Code != http.StatusOK {
			t.Fatalf("a first-time user got %d, want 200 through the default role", w.Code)
		}
		if ok, err := host.HasMembership(ctx, "newcomer", "member"); !ok || err != nil {
			t.Fatalf("newcomer not stored as a member: %v, %v", ok, err)
		}

		added, err := host.AddMemberships(ctx, "member", []string{"old1", "old2", "newcomer"})
		if err != nil || added != 2 {
			t.Fatalf("backfill added %d, %v; want 2 (newcomer was a member)", added, err)
		}
		members, err := host.GetRoleMembers(ctx, "member")
		if err != nil || strings.Join(members, ",") != "newcomer,old1,old2" {
			t.Fatalf("members = %v, %v", members, err)
		}
		if _, err := host.AddMemberships(ctx, "nosuch", []string{"a"}); !errors.Is(err, ErrRoleNotFound) {
			t.Fatalf("backfill into a missing role: %v", err)
		}
	})
	t.Run("needs a client key", func(t *testing.T) {
		cfg := DefaultConfig()
		cfg.DefaultRole = "member"
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "AUTH_DEFAULT_ROLE needs AUTH_CLIENT_KEY") {
			t.Fatalf("Validate = %v", err)
		}
	})
}
