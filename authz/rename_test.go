package authz

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestRenameUser: POST /api/user/sara/rename/sara2 moves sara's global and
// scoped memberships in one audited write; GET /api/user_roles/sara is then
// empty and sara2 passes the guards sara passed (a global guard and one
// with ScopeFromParam), here and on a second Authz over the same store
// (on PostgreSQL with the periodic check off, so only the change log
// naming both users explains it). A new name holding memberships is 409
// unless ?merge=true, which merges them; bad names are 400, unknown query
// parameters 400. On both databases, names plain and encrypted.
func TestRenameUser(t *testing.T) {
	for _, m := range encryptModes {
		t.Run(m.name, func(t *testing.T) {
			storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
				testRenameUser(t, target, m.mod)
			})
		})
	}
}

func testRenameUser(t *testing.T, target storagetest.Target, mod func(*Config)) {
	key := newKey()
	interval := 100 * time.Millisecond
	if target.Name == "postgresql" {
		interval = time.Minute // only the notification and the change log explain success
	}
	cfg := func(c *Config) {
		c.ClientKey = key
		c.Resolver = middleware.HeaderResolver("X-User")
		c.RevisionCheckInterval = interval
		if mod != nil {
			mod(c)
		}
	}
	az, replica := openTarget(t, target, cfg), openTarget(t, target, cfg)
	ctx := context.Background()
	c := mustClient(t, az, key)
	ok := mustOK(t)
	ok(c.AddRole(ctx, "viewer", ""))
	ok(c.AddRole(ctx, "editor", ""))
	ok(c.AddPermission(ctx, "viewer", "read"))
	ok(c.AddPermission(ctx, "editor", "edit"))
	ok(c.AddMembership(ctx, "sara", "viewer"))
	ok(c.AddMembershipIn(ctx, "org-42", "sara", "editor"))

	guarded := func(az *Authz) *gin.Engine {
		e := newTestRouter(t, az, "")
		e.GET("/notes", az.RequirePermission("read"), func(c *gin.Context) { c.Status(http.StatusOK) })
		e.POST("/orgs/:org/notes", az.RequirePermission("edit", ScopeFromParam("org")), func(c *gin.Context) { c.Status(http.StatusOK) })
		return e
	}
	e, re := guarded(az), guarded(replica)
	passes := func(e *gin.Engine, user string) [2]int {
		return [2]int{
			performRequest(e, http.MethodGet, "/notes", "", nil, "X-User", user).Code,
			performRequest(e, http.MethodPost, "/orgs/org-42/notes", "", nil, "X-User", user).Code,
		}
	}
	allowed, refused := [2]int{200, 200}, [2]int{403, 403}
	for _, eng := range []*gin.Engine{e, re} { // both caches warm with sara's yes and sara2's no
		if got := passes(eng, "sara"); got != allowed {
			t.Fatalf("sara before: %v", got)
		}
		if got := passes(eng, "sara2"); got != refused {
			t.Fatalf("sara2 before: %v", got)
		}
	}

	body := checkEnvelope(t, performRequest(e, http.MethodPost, "/api/user/sara/rename/sara2", key, nil), http.StatusOK)
	if d := body["data"].(map[string]any); d["user"] != "sara2" || fmt.Sprint(d["moved"]) != "2" {
		t.Fatalf("rename data = %v", d)
	}
	roles := func(user string) []any {
		return checkEnvelope(t, performRequest(e, http.MethodGet, "/api/user_roles/"+user, key, nil), http.StatusOK)["data"].([]any)
	}
	if got := roles("sara"); len(got) != 0 {
		t.Fatalf("GET /api/user_roles/sara after the rename = %v", got)
	}
	if got := roles("sara2"); len(got) != 1 {
		t.Fatalf("GET /api/user_roles/sara2 after the rename = %v", got)
	}
	if ok, err := c.HasMembershipIn(ctx, "org-42", "sara2", "editor"); err != nil || !ok {
		t.Fatalf("scoped membership not moved: %v %v", ok, err)
	}
	if got := passes(e, "sara2"); got != allowed {
		t.Errorf("sara2 after: %v", got)
	}
	if got := passes(e, "sara"); got != refused {
		t.Errorf("sara after: %v", got)
	}
	eventually(t, 5*time.Second, "the replica sees the rename", func() bool {
		return passes(re, "sara2") == allowed && passes(re, "sara") == refused
	})

	recs, err := c.AuditRecords(ctx, "rename_user", 0, 10)
	if err != nil || len(recs) != 1 {
		t.Fatalf("audit records of rename_user: %v %v", recs, err)
	}
	wantResource := "user:" + c.scope.AuditUser("sara") + "->" + c.scope.AuditUser("sara2")
	if recs[0].Resource != wantResource || recs[0].Outcome != "created" {
		t.Errorf("audit record %+v, want resource %s", recs[0], wantResource)
	}
	if mod != nil && strings.Contains(recs[0].Resource, "sara") {
		t.Errorf("the audit record holds a plaintext name: %s", recs[0].Resource)
	}

	// sara2 holds memberships now: a rename onto it is refused unless merged.
	ok(c.AddMembership(ctx, "bob", "viewer"))
	ok(c.AddMembershipIn(ctx, "org-42", "bob", "editor"))
	ok(c.AddMembershipIn(ctx, "org-7", "bob", "editor"))
	checkEnvelope(t, performRequest(e, http.MethodPost, "/api/user/bob/rename/sara2", key, nil), http.StatusConflict)
	if ok, _ := c.HasMembership(ctx, "bob", "viewer"); !ok {
		t.Fatal("a refused rename changed something")
	}
	body = checkEnvelope(t, performRequest(e, http.MethodPost, "/api/user/bob/rename/sara2?merge=true", key, nil), http.StatusOK)
	if d := body["data"].(map[string]any); fmt.Sprint(d["moved"]) != "3" {
		t.Fatalf("merge data = %v", d)
	}
	got, err := c.GetUserRolesIn(ctx, "org-7", "sara2")
	if err != nil || len(got) != 2 {
		t.Fatalf("sara2's roles in org-7 after the merge: %v %v", got, err)
	}
	if rs := roles("bob"); len(rs) != 0 {
		t.Fatalf("bob after the merge: %v", rs)
	}
	if n := countRows(t, az, c, "rolegate_scoped_memberships"); n != 2 {
		t.Errorf("%d scoped memberships after the merge, want 2 (the duplicate dropped)", n)
	}

	for _, tc := range []struct {
		path string
		want int
	}{
		{"/api/user/sara2/rename/sara2", http.StatusOK}, // to itself: moved 0
		{"/api/user/sara2/rename/%20x", http.StatusBadRequest},
		{"/api/user/sara2/rename/x?merge=maybe", http.StatusBadRequest},
		{"/api/user/sara2/rename/x?force=true", http.StatusBadRequest},
		{"/api/user/nobody/rename/x", http.StatusOK}, // nothing to move: moved 0
	} {
		checkEnvelope(t, performRequest(e, http.MethodPost, tc.path, key, nil), tc.want)
	}
}

// TestRenameUserLibrary: Client.RenameUser's errors and counts.
func TestRenameUserLibrary(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		mustOK(t)(c.AddRole(ctx, "r", ""))
		mustOK(t)(c.AddMembership(ctx, "a", "r"))
		mustOK(t)(c.AddMembership(ctx, "b", "r"))
		if _, err := c.RenameUser(ctx, "a", "b", false); !errors.Is(err, ErrUserExists) {
			t.Fatalf("onto a member: %v", err)
		}
		if n, err := c.RenameUser(ctx, "a", "b", true); err != nil || n != 1 {
			t.Fatalf("merge: %d %v", n, err)
		}
		members, err := c.GetRoleMembers(ctx, "r")
		if err != nil || !slices.Equal(members, []string{"b"}) {
			t.Fatalf("members after the merge: %v %v", members, err)
		}
		if _, err := c.RenameUser(ctx, "b", "a/b", false); !errors.Is(err, ErrInvalidName) {
			t.Fatalf("bad name: %v", err)
		}
	})
}
