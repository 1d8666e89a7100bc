package authz

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rest"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// peopleApp is an admin plane with people on: the host's key, X-User as
// the resolver, and in the host's namespace the roles of the tests: boss
// holds rolegate.admin, auditor rolegate.read, mia rolegate.members in
// org-1 (with view and edit there), and viewer, editor and admins to
// hand out.
func peopleApp(t *testing.T, target storagetest.Target) (*Authz, *gin.Engine, string) {
	t.Helper()
	key := newKey()
	az := openTarget(t, target, func(c *Config) {
		c.ClientKey = key
		c.AdminUsers = true
		c.Resolver = middleware.HeaderResolver("X-User")
	})
	host := mustHost(t, az)
	ctx := context.Background()
	ok := mustOK(t)
	for role, perms := range map[string][]string{
		"admins": {PermAdmin}, "auditors": {PermRead}, "org-admins": {PermMembers, "view", "edit"},
		"viewer": {"view"}, "editor": {"view", "edit"}, "deleter": {"view", "delete"}, "sneaky": {"view", PermRead},
	} {
		ok(host.AddRole(ctx, role, ""))
		for _, p := range perms {
			ok(host.AddPermission(ctx, role, p))
		}
	}
	ok(host.AddRole(ctx, "heir", ""))
	ok(host.AddInheritance(ctx, "heir", "admins")) // reserved through inheritance
	ok(host.AddMembership(ctx, "boss", "admins"))
	ok(host.AddMembership(ctx, "auditor", "auditors"))
	ok(host.AddMembershipIn(ctx, "org-1", "mia", "org-admins"))
	return az, newTestRouter(t, az, ""), key
}

// personRequest is a request of user (no client key) from the console's
// own origin.
func personRequest(e http.Handler, method, target, user string, headers ...string) (int, string) {
	w := performRequest(e, method, target, "", nil, append([]string{"X-User", user, "Sec-Fetch-Site", "same-origin"}, headers...)...)
	return w.Code, w.Body.String()
}

// routeTarget fills a route's parameters with names that exist.
func routeTarget(rt testRoute) string {
	values := map[string]string{"role": "viewer", "group": "viewer", "user": "zoe", "name": "view",
		"parent": "editor", "new": "zoe2", "permission": "view"}
	return regexp.MustCompile(`:[a-z]+`).ReplaceAllStringFunc(rt.path, func(p string) string {
		if v, ok := values[p[1:]]; ok {
			return v
		}
		return "x"
	})
}

// Every admin route, walked from the route table: a person without any
// admin permission gets 403 on each (and POST /api/batch), and nothing is
// stored; rolegate.read passes every read and no write; rolegate.admin
// passes all. A person without a name is 401; without AdminUsers a
// keyless request is 401 as before. On SQLite and PostgreSQL.
func TestPeopleRouteTable(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, e, _ := peopleApp(t, target)
		routes := append(restRoutes(), testRoute{method: http.MethodPost, path: "/api/batch"})
		before := countRows(t, az, mustHost(t, az), "rolegate_roles")
		for _, rt := range routes {
			target := routeTarget(rt)
			if code, body := personRequest(e, rt.method, target, "nobody"); code != http.StatusForbidden {
				t.Errorf("nobody: %s %s: %d %s", rt.method, target, code, body)
			} else if !strings.Contains(body, "rolegate.") {
				t.Errorf("nobody: %s %s: the 403 names no permission: %s", rt.method, target, body)
			}
			code, body := personRequest(e, rt.method, target, "auditor")
			reads := rt.method == http.MethodGet || rt.path == "/api/check" // a POST that only reads
			if reads && code == http.StatusForbidden || !reads && code != http.StatusForbidden {
				t.Errorf("auditor (rolegate.read): %s %s: %d %s", rt.method, target, code, body)
			}
		}
		if after := countRows(t, az, mustHost(t, az), "rolegate_roles"); after != before {
			t.Fatalf("roles %d -> %d after refused writes", before, after)
		}
		for _, rt := range routes {
			if rt.method != http.MethodGet {
				continue
			}
			target := routeTarget(rt)
			if code, body := personRequest(e, rt.method, target, "boss"); code >= 400 {
				t.Errorf("boss (rolegate.admin): %s %s: %d %s", rt.method, target, code, body)
			}
		}
		if code, _ := personRequest(e, http.MethodGet, "/api/roles", ""); code != http.StatusUnauthorized {
			t.Errorf("no user: %d, want 401", code)
		}
		closed := openTarget(t, target, func(c *Config) {
			c.ClientKey = newKey()
			c.Resolver = middleware.HeaderResolver("X-User")
		})
		if code, _ := personRequest(newTestRouter(t, closed, ""), http.MethodGet, "/api/roles", "boss"); code != http.StatusUnauthorized {
			t.Errorf("people off: a keyless request got %d, want 401", code)
		}
	})
}

// rolegate.admin manages the namespace as a key does, every write signed
// user:boss; a person never reaches another namespace (the key of another
// client sent with the user is that key's request, and a person with
// rolegate.admin in another namespace is nobody in the host's).
func TestPeopleAdminManages(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, e, key := peopleApp(t, target)
		ctx := context.Background()
		steps := []struct {
			method, target string
			want           int
		}{
			{http.MethodPost, "/api/role/writers", 201},
			{http.MethodPost, "/api/permission/writers/write", 201},
			{http.MethodPost, "/api/membership/zoe/writers?scope=org-2", 201},
			{http.MethodPost, "/api/role/writers/inherits/viewer", 201},
			{http.MethodPost, "/api/user/zoe/rename/zoe2", 200},
			{http.MethodGet, "/api/audit?actor=user:boss", 200},
			{http.MethodDelete, "/api/role/writers", 200},
		}
		for _, s := range steps {
			if code, body := personRequest(e, s.method, s.target, "boss", "X-Change-Reason", "OPS-1"); code != s.want {
				t.Fatalf("boss: %s %s: %d %s", s.method, s.target, code, body)
			}
		}
		recs, err := mustHost(t, az).AuditRecordsWhere(ctx, AuditQuery{Actor: "user:boss"})
		if err != nil || len(recs) < 6 {
			t.Fatalf("boss's records: %d, %v", len(recs), err)
		}
		for _, r := range recs {
			if r.Reason != "OPS-1" && r.Action != "list_audit" {
				t.Errorf("record %+v: reason %q", r, r.Reason)
			}
		}
		other := newKey()
		oc := mustClient(t, az, other)
		mustOK(t)(oc.AddRole(ctx, "theirs", ""))
		mustOK(t)(oc.AddPermission(ctx, "theirs", PermAdmin))
		mustOK(t)(oc.AddMembership(ctx, "stranger", "theirs"))
		if code, _ := personRequest(e, http.MethodGet, "/api/roles", "stranger"); code != http.StatusForbidden {
			t.Errorf("admin of another namespace: %d, want 403 in the host's", code)
		}
		w := performRequest(e, http.MethodGet, "/api/roles", other, nil, "X-User", "boss")
		if w.Code != http.StatusUnauthorized { // closed plane: only the host's key
			t.Errorf("another key with a user: %d, want 401", w.Code)
		}
		w = performRequest(e, http.MethodPost, "/api/role/keyed", key, nil, "X-User", "nobody")
		if w.Code != http.StatusCreated {
			t.Errorf("the host key with a user header: %d, want the key's 201", w.Code)
		}
		if has, _ := oc.GetRole(ctx, "writers"); has.Role != "" {
			t.Error("a person's write reached another namespace")
		}
	})
}

// rolegate.members in org-1: mia adds and removes members of a role she
// fully holds there; everything else is 403 naming the permission.
func TestPeopleMembersDelegation(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, e, _ := peopleApp(t, target)
		ctx := context.Background()
		for _, s := range []struct {
			method, target string
			want           int
			names          string
		}{
			{http.MethodPost, "/api/membership/zoe/editor?scope=org-1", 201, ""},
			{http.MethodGet, "/api/members/editor?scope=org-1", 200, ""},
			{http.MethodGet, "/api/membership/zoe/editor?scope=org-1", 200, ""},
			{http.MethodDelete, "/api/membership/zoe/editor?scope=org-1", 200, ""},
			{http.MethodPost, "/api/membership/zoe/viewer?scope=org-1", 201, ""},
			{http.MethodPost, "/api/membership/zoe/viewer?scope=org-2", 403, "rolegate.members"},
			{http.MethodPost, "/api/membership/zoe/viewer", 403, "rolegate.members"},
			{http.MethodDelete, "/api/membership/zoe/viewer", 403, "rolegate.members"},
			{http.MethodPost, "/api/membership/zoe/deleter?scope=org-1", 403, "delete"},
			{http.MethodPost, "/api/membership/zoe/admins?scope=org-1", 403, "rolegate.admin"},
			{http.MethodPost, "/api/membership/zoe/heir?scope=org-1", 403, "rolegate.admin"},
			{http.MethodPost, "/api/membership/zoe/sneaky?scope=org-1", 403, "rolegate.read"},
			{http.MethodPost, "/api/membership/zoe/org-admins?scope=org-1", 403, "rolegate.members"},
			{http.MethodGet, "/api/members/editor?scope=org-2", 403, "rolegate.members"},
			{http.MethodPost, "/api/role/mine", 403, "rolegate.admin"},
			{http.MethodPost, "/api/permission/viewer/delete", 403, "rolegate.admin"},
			{http.MethodPost, "/api/role/viewer/inherits/deleter", 403, "rolegate.admin"},
			{http.MethodDelete, "/api/role/viewer/inherits/editor", 403, "rolegate.admin"},
			{http.MethodPost, "/api/batch", 403, "rolegate.admin"},
			{http.MethodGet, "/api/roles", 403, "rolegate.read"},
		} {
			code, body := personRequest(e, s.method, s.target, "mia")
			if code != s.want || !strings.Contains(body, s.names) {
				t.Errorf("mia: %s %s: %d %s, want %d naming %q", s.method, s.target, code, body, s.want, s.names)
			}
		}
		host := mustHost(t, az)
		if ok, _ := host.UserHasPermissionIn(ctx, "org-1", "zoe", "view"); !ok {
			t.Error("zoe's viewer membership in org-1 is missing")
		}
		if ok, _ := host.UserHasPermissionIn(ctx, "org-2", "zoe", "view"); ok {
			t.Error("zoe holds view in org-2")
		}
		recs, err := host.AuditRecordsWhere(ctx, AuditQuery{Actor: "user:mia", Action: "add_membership"})
		if err != nil || len(recs) == 0 {
			t.Fatalf("mia's records: %v %v", recs, err)
		}
	})
}

// A person's write sent by another site's page is refused (403) before
// the user is even looked up; the same from the admin plane's own origin
// passes, as does a request from no browser. A key's request is not
// checked: a browser never adds a key by itself.
func TestPeopleCrossSiteWrites(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, e, key := peopleApp(t, target)
		for _, c := range []struct {
			headers []string
			want    int
		}{
			{[]string{"Sec-Fetch-Site", "cross-site", "Origin", "http://evil.example"}, 403},
			{[]string{"Sec-Fetch-Site", "same-site", "Origin", "http://other.example.com"}, 403},
			{[]string{"Origin", "http://evil.example"}, 403},
			{[]string{"Origin", "null"}, 403},
			{[]string{"Sec-Fetch-Site", "same-origin", "Origin", "http://example.com"}, 201},
			{[]string{"Origin", "http://example.com"}, 201},
			{nil, 201},
		} {
			path := "/api/role/r" + strings.ReplaceAll(strings.Join(c.headers, ""), "/", "")
			path = "/api/role/" + regexp.MustCompile(`[^a-z0-9-]`).ReplaceAllString(path, "")
			// A form post would be refused for its body too; a DELETE,
			// say, needs none, so the check must stop it before that.
			w := performRequest(e, http.MethodPost, path, "", nil, append([]string{"X-User", "boss"}, c.headers...)...)
			if w.Code != c.want {
				t.Errorf("%v: %d %s, want %d", c.headers, w.Code, w.Body, c.want)
			}
		}
		w := performRequest(e, http.MethodDelete, "/api/role/viewer", "", nil, "X-User", "boss", "Sec-Fetch-Site", "cross-site")
		if w.Code != http.StatusForbidden {
			t.Errorf("a cross-site DELETE: %d", w.Code)
		}
		if ok, _ := mustHost(t, az).GetRole(context.Background(), "viewer"); ok.Role == "" {
			t.Error("a cross-site DELETE deleted the role")
		}
		w = performRequest(e, http.MethodPost, "/api/role/by-key", key, nil, "Sec-Fetch-Site", "cross-site")
		if w.Code != http.StatusCreated {
			t.Errorf("a key's request with Sec-Fetch-Site: cross-site: %d", w.Code)
		}
	})
}

// Open mode has no admin plane for people: a grant of a reserved name is
// refused there, alone, in a batch and by the REST API.
func TestReservedNamesRefusedInOpenMode(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, nil)
		c := mustClient(t, az, newKey())
		ctx := context.Background()
		mustOK(t)(c.AddRole(ctx, "r", ""))
		for _, p := range []string{PermAdmin, PermRead, PermMembers} {
			if _, err := c.AddPermission(ctx, "r", p); !isInvalidName(err) {
				t.Errorf("AddPermission %s: %v", p, err)
			}
			if _, err := c.Batch(ctx, []Operation{{Op: "add_permission", Role: "r", Permission: p}}); !isInvalidName(err) {
				t.Errorf("Batch add_permission %s: %v", p, err)
			}
		}
		w := performRequest(newTestRouter(t, az, ""), http.MethodPost, "/api/permission/r/rolegate.admin", newKey(), nil)
		checkEnvelope(t, w, http.StatusBadRequest)
		if !rest.Reserved("rolegate.admin") || rest.Reserved("rolegate.other") {
			t.Fatal("Reserved")
		}
	})
}

func isInvalidName(err error) bool { return err != nil && strings.Contains(err.Error(), "reserved") }

// GET /api/whoami tells the console who is signed in and what to show:
// a key is admin; boss is admin; auditor reads; mia holds rolegate.members
// in org-1, where she may hand out viewer and editor (not deleter, not a
// role holding a reserved name, not one inheriting rolegate.admin); a
// person with nothing gets an answer with nothing, not a 403.
func TestPeopleWhoami(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		_, e, key := peopleApp(t, target)
		whoami := func(user, key string) map[string]any {
			t.Helper()
			w := performRequest(e, http.MethodGet, "/api/whoami", key, nil, "X-User", user)
			return checkEnvelope(t, w, http.StatusOK)["data"].(map[string]any)
		}
		if d := whoami("boss", key); d["admin"] != true || !strings.HasPrefix(d["actor"].(string), "key:") || d["user"] != nil {
			t.Errorf("a key: %v", d)
		}
		if d := whoami("boss", ""); d["admin"] != true || d["actor"] != "user:boss" || d["user"] != "boss" {
			t.Errorf("boss: %v", d)
		}
		if d := whoami("auditor", ""); d["admin"] != false || d["read"] != true {
			t.Errorf("auditor: %v", d)
		}
		d := whoami("mia", "")
		members, _ := json.Marshal(d["members"])
		if d["admin"] != false || d["read"] != false || string(members) != `[{"roles":["editor","viewer"],"scope":"org-1"}]` {
			t.Errorf("mia: %v, members %s", d, members)
		}
		if d := whoami("nobody", ""); d["admin"] != false || fmt.Sprint(d["members"]) != "[]" {
			t.Errorf("nobody: %v", d)
		}
		if w := performRequest(e, http.MethodGet, "/api/whoami", "", nil); w.Code != http.StatusUnauthorized {
			t.Errorf("no one: %d", w.Code)
		}
	})
}
