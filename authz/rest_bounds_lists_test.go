package authz

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz/internal/clock"
)

// The direct lists (a role's members, a role's own permissions, a user's
// roles, the scoped memberships) and GET of one membership or grant show
// each bounded row's starts_at and expires_at, and a row outside its
// window as such: listed with "held": false, GET answering result false
// with its bounds; the clock moves and the same reads say held. An
// unbounded row is listed by its name alone. Plain and encrypted, on both
// stores.
func TestRESTListsShowBounds(t *testing.T) {
	forEachClockedStoreEncrypted(t, testRESTListsShowBounds)
}

func testRESTListsShowBounds(t *testing.T, az *Authz, clk *clock.Fake) {
	ctx := context.Background()
	key := newKey()
	c := mustClient(t, az, key)
	e := newTestRouter(t, az, "")
	monday, friday := boundsT0.Add(time.Hour), boundsT0.Add(4*24*time.Hour+9*time.Hour)
	mustDo(t)(c.AddRole(ctx, "editor", ""))
	mustDo(t)(c.AddPermission(ctx, "editor", "edit"))
	mustDo(t)(c.AddPermission(ctx, "editor", "deploy", StartsAt(monday)))
	mustDo(t)(c.AddMembership(ctx, "alice", "editor", ExpiresAt(friday)))
	mustDo(t)(c.AddMembership(ctx, "bob", "editor", StartsAt(monday), ExpiresAt(friday)))
	mustDo(t)(c.AddMembership(ctx, "carol", "editor"))
	mustDo(t)(c.AddMembershipIn(ctx, "org-1", "dave", "editor", StartsAt(monday)))
	mustDo(t)(c.AddMembershipIn(ctx, "org-1", "erin", "editor"))
	const (
		mon = `"starts_at":"2030-01-07T10:00:00Z"`
		fri = `"expires_at":"2030-01-11T18:00:00Z"`
	)
	get := func(path string) string {
		t.Helper()
		w := performRequest(e, http.MethodGet, path, key, nil)
		checkEnvelope(t, w, http.StatusOK)
		body := w.Body.String()
		i, j := strings.Index(body, `"data":`), strings.LastIndex(body, `,"timestamp"`)
		return body[i+len(`"data":`) : j]
	}
	steps := []struct{ path, before, after string }{
		{"/api/members/editor",
			`[{"user":"alice",` + fri + `,"held":true},{"user":"bob",` + mon + `,` + fri + `,"held":false},{"user":"carol"}]`,
			`[{"user":"alice",` + fri + `,"held":true},{"user":"bob",` + mon + `,` + fri + `,"held":true},{"user":"carol"}]`},
		{"/api/members/editor?limit=1&after=alice", `[{"user":"bob",` + mon + `,` + fri + `,"held":false}]`, ""},
		{"/api/members/editor?prefix=b", `[{"user":"bob",` + mon + `,` + fri + `,"held":false}]`, ""},
		{"/api/role_permissions/editor",
			`[{"name":"deploy",` + mon + `,"held":false},{"name":"edit"}]`,
			`[{"name":"deploy",` + mon + `,"held":true},{"name":"edit"}]`},
		{"/api/user_roles/bob", `[{"role":"editor",` + mon + `,` + fri + `,"held":false}]`, `[{"role":"editor",` + mon + `,` + fri + `,"held":true}]`},
		{"/api/scoped_memberships",
			`[{"user":"dave","role":"editor","scope":"org-1",` + mon + `,"held":false},{"user":"erin","role":"editor","scope":"org-1"}]`,
			`[{"user":"dave","role":"editor","scope":"org-1",` + mon + `,"held":true},{"user":"erin","role":"editor","scope":"org-1"}]`},
		{"/api/membership/bob/editor", `{"result":false,` + mon + `,` + fri + `}`, `{"result":true,` + mon + `,` + fri + `}`},
		{"/api/membership/alice/editor", `{"result":true,` + fri + `}`, ""},
		{"/api/membership/carol/editor", `{"result":true}`, ""},
		{"/api/membership/zoe/editor", `{"result":false}`, ""},
		{"/api/membership/dave/editor?scope=org-1", `{"result":false,` + mon + `}`, `{"result":true,` + mon + `}`},
		{"/api/permission/editor/deploy", `{"result":false,` + mon + `}`, `{"result":true,` + mon + `}`},
		// The effective list counts the rows held now only.
		{"/api/role_permissions/editor?effective=true", `[{"name":"edit"}]`, `[{"name":"deploy"},{"name":"edit"}]`},
	}
	for _, s := range steps {
		if got := get(s.path); got != s.before {
			t.Errorf("GET %s before Monday:\n got %s\nwant %s", s.path, got, s.before)
		}
	}
	clk.Set(monday)
	for _, s := range steps {
		if s.after == "" {
			continue
		}
		if got := get(s.path); got != s.after {
			t.Errorf("GET %s on Monday:\n got %s\nwant %s", s.path, got, s.after)
		}
	}
	// explain names the bounds of the membership and of the grant.
	mustDo(t)(c.AddPermission(ctx, "editor", "deploy", StartsAt(monday), ExpiresAt(friday)))
	for path, want := range map[string]string{
		"/api/has_permission/alice/deploy?explain=true": `"membership_bounds":{` + fri + `},"grant_bounds":{` + mon + `,` + fri + `}`,
		"/api/has_permission/carol/edit?explain=true":   `"granted_by":"editor"}`,
	} {
		if got := get(path); !strings.Contains(got, want) {
			t.Errorf("GET %s: %s; want %s in it", path, got, want)
		}
	}
	// ?total counts what the list lists: every stored row.
	w := performRequest(e, http.MethodGet, "/api/members/editor?total=true", key, nil)
	if n := w.Header().Get("X-Total-Count"); w.Code != http.StatusOK || n != "3" {
		t.Fatalf("members total = %q (%d); want 3", n, w.Code)
	}
}
