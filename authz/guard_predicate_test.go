package authz

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// guardNote is a host's resource in these tests: an author and an org.
type guardNote struct{ author, org string }

var guardNotes = map[string]guardNote{
	"1": {author: "jack"},
	"2": {author: "alice", org: "org-42"},
	"3": {author: "alice", org: "org-7"},
}

var errNoteStore = errors.New("note store down")

// noteByID is the host's loader: "boom" fails, an unknown id is not found.
func noteByID(id string) (guardNote, error) {
	if id == "boom" {
		return guardNote{}, errNoteStore
	}
	n, ok := guardNotes[id]
	if !ok {
		return guardNote{}, ErrResourceNotFound
	}
	return n, nil
}

// isAuthor is an OrIf/AndIf predicate counting its calls.
func isAuthor(calls *atomic.Int32) func(c *gin.Context, user string) (bool, error) {
	return func(c *gin.Context, user string) (bool, error) {
		calls.Add(1)
		n, err := noteByID(c.Param("id"))
		return err == nil && n.author == user, err
	}
}

// seed runs setup writes, failing the test on the first error.
func seed(t *testing.T, steps ...func() (bool, error)) {
	t.Helper()
	for _, step := range steps {
		if _, err := step(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGuardPredicates: OrIf admits the author without the permission and
// a holder without being the author, asks the predicate only after the
// permission refused, answers 404 for a missing resource and 503 when the
// predicate fails (never allowing); AndIf needs both and asks the
// predicate only after the permission admitted. The decision log says
// which branch decided. On both databases.
func TestGuardPredicates(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		key := newKey()
		az, logs := openREST(t, target, func(c *Config) {
			c.ClientKey = key
			c.Resolver = middleware.HeaderResolver("X-User")
			c.DecisionLog = "all"
		})
		ctx := context.Background()
		host := mustHost(t, az)
		seed(t,
			func() (bool, error) { return host.AddRole(ctx, "moderator", "") },
			func() (bool, error) { return host.AddPermission(ctx, "moderator", "notes.delete") },
			func() (bool, error) { return host.AddMembership(ctx, "sara", "moderator") },
			func() (bool, error) { return host.AddRole(ctx, "editor", "") },
			func() (bool, error) { return host.AddPermission(ctx, "editor", "notes.edit") },
			func() (bool, error) { return host.AddMembership(ctx, "jack", "editor") },
			func() (bool, error) { return host.AddMembership(ctx, "alice", "editor") },
		)
		var orCalls, andCalls atomic.Int32
		e := gin.New()
		ok := func(c *gin.Context) {
			user, _ := middleware.UserFrom(c)
			c.String(http.StatusOK, user)
		}
		e.DELETE("/notes/:id", az.RequirePermission("notes.delete", OrIf(isAuthor(&orCalls))), ok)
		e.PUT("/notes/:id", az.RequirePermission("notes.edit", AndIf(isAuthor(&andCalls))), ok)

		for _, tc := range []struct {
			method, path, user string
			want               int
			asked              int32 // predicate calls
			decidedBy          string
		}{
			{"DELETE", "/notes/1", "jack", 200, 1, "predicate"},    // the author
			{"DELETE", "/notes/1", "sara", 200, 0, "permission"},   // a holder: predicate never asked
			{"DELETE", "/notes/1", "mallory", 403, 1, "predicate"}, // neither
			{"DELETE", "/notes/9", "mallory", 404, 1, "predicate"}, // no such note
			{"DELETE", "/notes/boom", "mallory", 503, 1, "predicate"},
			{"DELETE", "/notes/boom", "sara", 200, 0, "permission"},
			{"DELETE", "/notes/1", "", 401, 0, ""},
			{"PUT", "/notes/1", "jack", 200, 1, "predicate"},    // editor and author
			{"PUT", "/notes/2", "jack", 403, 1, "predicate"},    // editor, not the author
			{"PUT", "/notes/1", "sara", 403, 0, "permission"},   // not an editor: predicate never asked
			{"PUT", "/notes/boom", "jack", 503, 1, "predicate"}, // fail closed
		} {
			orCalls.Store(0)
			andCalls.Store(0)
			before := len(logs.String())
			w := performRequest(e, tc.method, tc.path, "", nil, "X-User", tc.user)
			if w.Code != tc.want {
				t.Errorf("%s %s as %q = %d %s, want %d", tc.method, tc.path, tc.user, w.Code, w.Body, tc.want)
			}
			if w.Code == 200 && w.Body.String() != tc.user {
				t.Errorf("%s %s: handler saw user %q, want %q", tc.method, tc.path, w.Body, tc.user)
			}
			if asked := orCalls.Load() + andCalls.Load(); asked != tc.asked {
				t.Errorf("%s %s as %q: predicate asked %d times, want %d", tc.method, tc.path, tc.user, asked, tc.asked)
			}
			record := logs.String()[before:]
			if tc.decidedBy != "" && !strings.Contains(record, "decided_by="+tc.decidedBy) {
				t.Errorf("%s %s as %q: decision log lacks decided_by=%s:\n%s", tc.method, tc.path, tc.user, tc.decidedBy, record)
			}
			if tc.decidedBy == "" && strings.Contains(record, "decided_by=") {
				t.Errorf("%s %s as %q: nothing was checked, yet %s", tc.method, tc.path, tc.user, record)
			}
		}
		// 404 and 503 use the error envelope, with no error text.
		w := performRequest(e, "DELETE", "/notes/boom", "", nil, "X-User", "mallory")
		assertEnvelope(t, w, http.StatusServiceUnavailable, "authorization unavailable")
		if strings.Contains(w.Body.String(), errNoteStore.Error()) {
			t.Errorf("the predicate's error leaked: %s", w.Body)
		}
		assertEnvelope(t, performRequest(e, "DELETE", "/notes/9", "", nil, "X-User", "mallory"),
			http.StatusNotFound, "not found")

		// A revoke is seen by the next request: the holder is now refused
		// unless the predicate admits.
		if _, err := host.DelMembership(ctx, "sara", "moderator"); err != nil {
			t.Fatal(err)
		}
		if got := performRequest(e, "DELETE", "/notes/1", "", nil, "X-User", "sara").Code; got != 403 {
			t.Errorf("after the revoke: %d, want 403", got)
		}
	})
}

// TestGuardScopeFunc: the scope comes from the loaded resource, not from
// the URL: a moderator of org-7 cannot act on an org-42 note through an
// org-7 URL (404) nor through its own URL (403); ErrResourceNotFound is
// 404 (through the refusal hook too), another error 503, and a function
// that answers the request itself is left alone. On both databases.
func TestGuardScopeFunc(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		key := newKey()
		az, _ := openREST(t, target, func(c *Config) {
			c.ClientKey = key
			c.Resolver = middleware.HeaderResolver("X-User")
		})
		ctx := context.Background()
		host := mustHost(t, az)
		seed(t,
			func() (bool, error) { return host.AddRole(ctx, "moderator", "") },
			func() (bool, error) { return host.AddPermission(ctx, "moderator", "notes.delete") },
			func() (bool, error) { return host.AddMembershipIn(ctx, "org-7", "jack", "moderator") },
		)
		noteOrg := func(c *gin.Context) (string, error) {
			if c.Param("id") == "gone" {
				c.AbortWithStatusJSON(http.StatusGone, gin.H{"error": "gone"})
				return "", nil
			}
			n, err := noteByID(c.Param("id"))
			if err != nil {
				return "", err
			}
			if n.org != c.Param("org") {
				return "", ErrResourceNotFound
			}
			return n.org, nil
		}
		var hookStatus atomic.Int32
		e := gin.New()
		ok := func(c *gin.Context) { c.Status(http.StatusNoContent) }
		e.DELETE("/orgs/:org/notes/:id", az.RequirePermission("notes.delete", ScopeFunc(noteOrg)), ok)
		e.DELETE("/hooked/:org/notes/:id", az.RequirePermission("notes.delete", ScopeFunc(noteOrg),
			OnRefusal(func(c *gin.Context, r Refusal) {
				hookStatus.Store(int32(r.Status))
				c.JSON(r.Status, gin.H{"errors": gin.H{"auth": r.Reason}})
			})), ok)
		e.DELETE("/global/notes/:id", az.RequirePermission("notes.delete", ScopeFunc(func(c *gin.Context) (string, error) {
			n, err := noteByID(c.Param("id"))
			return n.org, err // "" for a note without org: refused, never a global-only check
		})), ok)
		for _, tc := range []struct {
			path, user string
			want       int
		}{
			{"/orgs/org-7/notes/3", "jack", 204},
			{"/orgs/org-7/notes/2", "jack", 404},  // the note is org-42's: the URL's org is not trusted
			{"/orgs/org-42/notes/2", "jack", 403}, // the note's own org: jack moderates org-7 only
			{"/orgs/org-7/notes/9", "jack", 404},
			{"/orgs/org-7/notes/boom", "jack", 503},
			{"/orgs/org-7/notes/gone", "jack", 410},
			{"/orgs/org-7/notes/2", "", 401}, // no user: the resource is never looked up
			{"/global/notes/1", "jack", 403},
		} {
			w := performRequest(e, "DELETE", tc.path, "", nil, "X-User", tc.user)
			if w.Code != tc.want {
				t.Errorf("DELETE %s as %q = %d %s, want %d", tc.path, tc.user, w.Code, w.Body, tc.want)
			}
			if tc.want == 410 && w.Body.String() != `{"error":"gone"}` {
				t.Errorf("the scope function's own answer was changed: %s", w.Body)
			}
		}
		w := performRequest(e, "DELETE", "/hooked/org-7/notes/2", "", nil, "X-User", "jack")
		if w.Code != 404 || hookStatus.Load() != 404 || w.Body.String() != `{"errors":{"auth":"not found"}}` {
			t.Errorf("hooked 404: %d %s, hook saw %d", w.Code, w.Body, hookStatus.Load())
		}
	})
}

// TestScopedGuardRefusesNonNFC: with a membership in scope "café", the
// decomposed spelling in the URL or the query is refused with 400 (the
// error envelope, or the host's hook with status 400) instead of being
// admitted while the handler sees other bytes; the composed spelling is
// admitted and the handler reads the very scope that was checked. On both
// databases.
func TestScopedGuardRefusesNonNFC(t *testing.T) {
	const nfc, nfd = "caf\u00e9", "cafe\u0301"
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		key := newKey()
		az, _ := openREST(t, target, func(c *Config) {
			c.ClientKey = key
			c.Resolver = middleware.HeaderResolver("X-User")
		})
		ctx := context.Background()
		host := mustHost(t, az)
		seed(t,
			func() (bool, error) { return host.AddRole(ctx, "reader", "") },
			func() (bool, error) { return host.AddPermission(ctx, "reader", "read") },
			func() (bool, error) { return host.AddMembershipIn(ctx, nfc, "alice", "reader") },
		)
		var hookStatus atomic.Int32
		e := gin.New()
		echo := func(c *gin.Context) { c.String(http.StatusOK, c.Param("org")+c.Query("org")) }
		e.GET("/orgs/:org/notes", az.RequirePermission("read", ScopeFromParam("org")), echo)
		e.GET("/notes", az.RequirePermission("read", ScopeFromQuery("org")), echo)
		e.GET("/hooked/:org/notes", az.RequirePermission("read", ScopeFromParam("org"),
			OnRefusal(func(c *gin.Context, r Refusal) {
				hookStatus.Store(int32(r.Status))
				c.JSON(r.Status, gin.H{"errors": gin.H{"scope": r.Reason}})
			})), echo)

		w := performRequest(e, "GET", "/orgs/caf%C3%A9/notes", "", nil, "X-User", "alice")
		if w.Code != 200 || w.Body.String() != nfc {
			t.Errorf("NFC scope: %d %q, want 200 %q", w.Code, w.Body, nfc)
		}
		for _, path := range []string{"/orgs/cafe%CC%81/notes", "/notes?org=cafe%CC%81"} {
			w := performRequest(e, "GET", path, "", nil, "X-User", "alice")
			assertEnvelope(t, w, http.StatusBadRequest, "scope is not in Unicode normalization form C")
			if strings.Contains(w.Body.String(), nfd) {
				t.Errorf("%s: the refusal echoes the scope: %s", path, w.Body)
			}
		}
		w = performRequest(e, "GET", "/hooked/cafe%CC%81/notes", "", nil, "X-User", "alice")
		if w.Code != 400 || hookStatus.Load() != 400 ||
			w.Body.String() != `{"errors":{"scope":"scope is not in Unicode normalization form C"}}` {
			t.Errorf("hooked: %d %s, hook saw %d", w.Code, w.Body, hookStatus.Load())
		}
		// No user first: an anonymous request learns nothing about scopes.
		if got := performRequest(e, "GET", "/orgs/cafe%CC%81/notes", "", nil).Code; got != 401 {
			t.Errorf("anonymous, NFD scope: %d, want 401", got)
		}
	})
}

// Conflicting or missing options stop the program at registration.
func TestGuardOptionMistakesPanic(t *testing.T) {
	az := openTarget(t, storagetest.SQLite(t), func(c *Config) { c.ClientKey = newKey(); c.Resolver = headerUser })
	yes := func(*gin.Context, string) (bool, error) { return true, nil }
	for name, build := range map[string]func(){
		"OrIf and AndIf":   func() { az.RequirePermission("read", OrIf(yes), AndIf(yes)) },
		"two OrIf":         func() { az.RequirePermission("read", OrIf(yes), OrIf(yes)) },
		"nil predicate":    func() { az.RequirePermission("read", AndIf(nil)) },
		"two scopes":       func() { az.RequirePermission("read", ScopeFromParam("org"), ScopeFromQuery("org")) },
		"nil client":       func() { az.RequireRole("editor", ForClient(nil)) },
		"empty any list":   func() { az.RequireAnyPermission(nil) },
		"invalid all name": func() { az.RequireAllPermissions([]string{"a/b"}) },
	} {
		if p := recoverPanic(build); !strings.Contains(p, "invalid guard config") {
			t.Errorf("%s: panicked with %q, want an invalid guard config", name, p)
		}
	}
}

// assertEnvelope checks an error envelope's status, code and detail.
func assertEnvelope(t *testing.T, w interface {
	Result() *http.Response
}, status int, detail string) {
	t.Helper()
	res := w.Result()
	var body struct {
		Success bool   `json:"success"`
		Code    int    `json:"code"`
		Error   string `json:"error"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("status %d, body not an envelope: %v", res.StatusCode, err)
	}
	if res.StatusCode != status || body.Success || body.Code != status || body.Error != detail {
		t.Errorf("status %d, envelope %+v; want %d %q", res.StatusCode, body, status, detail)
	}
}
