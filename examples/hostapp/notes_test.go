package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// ownerWalkthrough is the README walkthrough from an empty database to the
// owner rule (step 6) and the scope taken from the note (step 7), in the
// README's format: a curl command, then the status it answers.
const ownerWalkthrough = `
curl -s -X POST -H "$K" http://127.0.0.1:8000/api/role/editor -d '{"description":"Edits notes"}'
curl -s -X POST -H "$K" http://127.0.0.1:8000/api/permission/editor/read
curl -s -X POST -H "$K" http://127.0.0.1:8000/api/permission/editor/edit
curl -s -X POST -H "$K" http://127.0.0.1:8000/api/membership/sara/editor
curl -s -H "X-User: sara" http://127.0.0.1:8000/notes -d '{"text":"hello"}' # 201
curl -s -X POST -H "$K" "http://127.0.0.1:8000/api/membership/alice/editor?scope=org-42"  # 201

curl -s -X DELETE -H "X-User: jack" http://127.0.0.1:8000/notes/1          # 403
curl -s -X DELETE -H "X-User: jack" http://127.0.0.1:8000/notes/99         # 404
curl -s -X DELETE -H "X-User: sara" http://127.0.0.1:8000/notes/1          # 204

curl -s -X POST -H "$K" http://127.0.0.1:8000/api/role/moderator                         # 201
curl -s -X POST -H "$K" http://127.0.0.1:8000/api/permission/moderator/notes.delete      # 201
curl -s -X POST -H "$K" "http://127.0.0.1:8000/api/membership/jack/moderator?scope=org-7"  # 201
curl -s -H "X-User: alice" http://127.0.0.1:8000/orgs/org-42/notes -d '{"text":"plan"}'  # 201
curl -s -X DELETE -H "X-User: jack" http://127.0.0.1:8000/orgs/org-7/notes/2    # 404
curl -s -X DELETE -H "X-User: jack" http://127.0.0.1:8000/orgs/org-42/notes/2   # 403
curl -s -X POST -H "$K" "http://127.0.0.1:8000/api/membership/jack/moderator?scope=org-42"  # 201
curl -s -X DELETE -H "X-User: jack" http://127.0.0.1:8000/orgs/org-42/notes/2   # 204
`

// testHost is the host app on a real HTTP server on loopback, over a fresh
// SQLite file, or a fresh schema of PostgreSQL when postgres is true
// (skipped when AUTH_TEST_POSTGRESQL_URL is not set, outside CI).
func testHost(t *testing.T, postgres bool) (base, key string) {
	t.Helper()
	gin.SetMode(gin.TestMode)
	cfg := authz.DefaultConfig()
	cfg.SQLitePath = filepath.Join(t.TempDir(), "auth.sqlite3")
	if postgres {
		// A schema of its own: the app's notes table is the app's, not
		// a client key's.
		target := storagetest.PostgreSQL(t)
		cfg.DatabaseType, cfg.PostgreSQLURL = "postgresql", target.Config.PostgreSQLURL
	}
	key = uuid.NewString() // a namespace of its own, also on a shared database
	cfg.ClientKey = key
	cfg.Resolver = middleware.HeaderResolver("X-User")
	az, err := authz.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { az.Close() })
	e, err := newEngine(az, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv.URL, key
}

func eachDatabase(t *testing.T, f func(t *testing.T, postgres bool)) {
	t.Run("sqlite", func(t *testing.T) { f(t, false) })
	t.Run("postgresql", func(t *testing.T) { f(t, true) })
}

// TestOwnerAndResourceScopeWalkthrough runs ownerWalkthrough's curl
// commands as written (only the address changed) and checks each status.
func TestOwnerAndResourceScopeWalkthrough(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl not installed")
	}
	eachDatabase(t, func(t *testing.T, postgres bool) {
		base, key := testHost(t, postgres)
		n := 0
		for _, line := range strings.Split(ownerWalkthrough, "\n") {
			m := curlLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			n++
			cmd := strings.ReplaceAll(m[1], "http://127.0.0.1:8000", base)
			sh := exec.Command("bash", "-c", "set -e; K=\"Authorization: Bearer $AUTH_CLIENT_KEY\"; "+
				cmd+" -o /dev/null -w '%{http_code}'")
			sh.Env = append(os.Environ(), "AUTH_CLIENT_KEY="+key)
			out, err := sh.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", cmd, err, out)
			}
			got := strings.TrimSpace(string(out))
			if m[2] != "" && got != m[2] || m[2] == "" && !strings.HasPrefix(got, "2") {
				t.Errorf("%s\n  answered %s, want %q", m[1], got, m[2])
			}
		}
		if n != 17 {
			t.Fatalf("ran %d commands, want 17", n)
		}
	})
}

// TestNotesOwnerRule: a created note carries its id and author; the
// author may delete it, a holder of notes.delete may delete anyone's,
// others get 403 and an unknown id 404; the list follows. A note of an org
// is reached only under its org's URL, with the scope taken from the note.
// A decomposed org name is refused with 400.
func TestNotesOwnerRule(t *testing.T) {
	eachDatabase(t, func(t *testing.T, postgres bool) {
		base, key := testHost(t, postgres)
		admin := "Bearer " + key
		for _, path := range []string{
			"/api/role/editor", "/api/permission/editor/read", "/api/permission/editor/edit",
			"/api/membership/sara/editor", "/api/membership/jack/editor",
			"/api/role/moderator", "/api/permission/moderator/notes.delete",
			"/api/membership/mod/moderator", "/api/membership/mod/editor",
			"/api/membership/alice/editor?scope=org-42", "/api/membership/alice/editor?scope=caf%C3%A9",
		} {
			if code, body := send(t, http.MethodPost, base+path, "", "Authorization", admin); code != http.StatusCreated {
				t.Fatalf("POST %s: %d %s", path, code, body)
			}
		}
		create := func(path, user, text string) note {
			t.Helper()
			code, body := send(t, http.MethodPost, base+path, `{"text":"`+text+`"}`, "X-User", user)
			var n note
			if code != http.StatusCreated || json.Unmarshal([]byte(body), &n) != nil {
				t.Fatalf("POST %s as %s: %d %s", path, user, code, body)
			}
			return n
		}
		s1 := create("/notes", "sara", "one")
		s2 := create("/notes", "sara", "two")
		j1 := create("/notes", "jack", "three")
		a1 := create("/orgs/org-42/notes", "alice", "plan")
		if s1.ID == "" || s1.ID == s2.ID || s1.Author != "sara" || j1.Author != "jack" || a1.Org != "org-42" || a1.Author != "alice" {
			t.Fatalf("created %+v %+v %+v %+v: want distinct ids, the resolved author and the org", s1, s2, j1, a1)
		}
		for _, tc := range []struct {
			method, path, user string
			want               int
		}{
			{"DELETE", "/notes/" + s1.ID, "jack", 403},  // not the author, no notes.delete
			{"DELETE", "/notes/" + s1.ID, "sara", 204},  // the author
			{"DELETE", "/notes/" + s1.ID, "sara", 404},  // gone
			{"DELETE", "/notes/" + j1.ID, "mod", 204},   // a holder of notes.delete
			{"DELETE", "/notes/nosuch", "mod", 404},     // the holder passes the guard; the handler finds nothing
			{"DELETE", "/notes/" + s2.ID, "", 401},      // no user
			{"DELETE", "/notes/" + a1.ID, "alice", 404}, // an org's note is not under /notes
			{"DELETE", "/orgs/org-7/notes/" + a1.ID, "mod", 404},
			{"DELETE", "/orgs/org-42/notes/" + a1.ID, "alice", 403}, // editor in org-42, not a moderator
			{"GET", "/orgs/cafe%CC%81/notes", "alice", 400},
			{"GET", "/orgs/caf%C3%A9/notes", "alice", 200},
			{"DELETE", "/orgs/org-42/notes/" + a1.ID, "mod", 204}, // a global moderator holds in every org
		} {
			if code, body := send(t, tc.method, base+tc.path, "", "X-User", tc.user); code != tc.want {
				t.Errorf("%s %s as %q = %d %s, want %d", tc.method, tc.path, tc.user, code, body, tc.want)
			}
		}
		code, body := send(t, http.MethodGet, base+"/notes", "", "X-User", "sara")
		var list struct{ Notes []note }
		if code != 200 || json.Unmarshal([]byte(body), &list) != nil || len(list.Notes) != 1 || list.Notes[0].ID != s2.ID {
			t.Errorf("GET /notes after the deletes: %d %s, want only note %s", code, body, s2.ID)
		}
	})
}

func send(t *testing.T, method, url, body string, header ...string) (int, string) {
	t.Helper()
	if body == "" {
		return call(t, method, url, header...)
	}
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestOrgsThroughTheFilter: GET /orgs lists the orgs holding notes where
// the user may read, from the app's notes table through where-can: a
// scoped reader sees her orgs, a global one every org with notes, a user
// reading nowhere none, an org without notes is not listed, and a revoke
// shows at once.
func TestOrgsThroughTheFilter(t *testing.T) {
	eachDatabase(t, func(t *testing.T, postgres bool) {
		base, key := testHost(t, postgres)
		admin := "Bearer " + key
		for _, path := range []string{
			"/api/role/editor", "/api/permission/editor/read", "/api/permission/editor/edit",
			"/api/membership/sara/editor",
			"/api/membership/alice/editor?scope=org-42", "/api/membership/alice/editor?scope=org-7",
			"/api/membership/jack/editor?scope=org-9",
		} {
			if code, body := send(t, http.MethodPost, base+path, "", "Authorization", admin); code != http.StatusCreated {
				t.Fatalf("POST %s: %d %s", path, code, body)
			}
		}
		for _, n := range []struct{ path, user string }{
			{"/orgs/org-42/notes", "alice"}, {"/orgs/org-7/notes", "alice"}, {"/orgs/org-5/notes", "sara"},
			{"/orgs/org-42/notes", "sara"}, {"/notes", "sara"},
		} {
			if code, body := send(t, http.MethodPost, base+n.path, `{"text":"x"}`, "X-User", n.user); code != http.StatusCreated {
				t.Fatalf("POST %s as %s: %d %s", n.path, n.user, code, body)
			}
		}
		orgsOf := func(user string) (int, []string) {
			code, body := send(t, http.MethodGet, base+"/orgs", "", "X-User", user)
			var out struct{ Orgs []string }
			if code == http.StatusOK && json.Unmarshal([]byte(body), &out) != nil {
				t.Fatalf("GET /orgs as %s: %s", user, body)
			}
			return code, out.Orgs
		}
		for _, tc := range []struct {
			user string
			code int
			orgs string
		}{
			{"alice", 200, "org-42 org-7"}, {"sara", 200, "org-42 org-5 org-7"},
			{"bob", 200, ""}, {"jack", 200, ""}, {"", 401, ""},
		} {
			code, orgs := orgsOf(tc.user)
			if code != tc.code || strings.Join(orgs, " ") != tc.orgs {
				t.Errorf("GET /orgs as %q: %d %q, want %d %q", tc.user, code, orgs, tc.code, tc.orgs)
			}
		}
		if code, body := send(t, http.MethodDelete, base+"/api/membership/alice/editor?scope=org-7", "", "Authorization", admin); code != http.StatusOK {
			t.Fatalf("revoke: %d %s", code, body)
		}
		if _, orgs := orgsOf("alice"); strings.Join(orgs, " ") != "org-42" {
			t.Errorf("after the revoke: %q, want org-42", orgs)
		}
	})
}
