package authz

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz/internal/rest"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// whereSetup gives alice read in org-1..org-3 (editor in org-2, which
// inherits viewer), globally through nothing, and bob read globally.
func whereSetup(t *testing.T, cl *Client) {
	t.Helper()
	ctx := t.Context()
	for _, step := range []func() (bool, error){
		func() (bool, error) { return cl.AddRole(ctx, "viewer", "") },
		func() (bool, error) { return cl.AddRole(ctx, "editor", "") },
		func() (bool, error) { return cl.AddPermission(ctx, "viewer", "read") },
		func() (bool, error) { return cl.AddPermission(ctx, "editor", "edit") },
		func() (bool, error) { return cl.AddInheritance(ctx, "editor", "viewer") },
		func() (bool, error) { return cl.AddMembershipIn(ctx, "org-3", "alice", "viewer") },
		func() (bool, error) { return cl.AddMembershipIn(ctx, "org-1", "alice", "viewer") },
		func() (bool, error) { return cl.AddMembershipIn(ctx, "org-2", "alice", "editor") },
		func() (bool, error) { return cl.AddMembership(ctx, "bob", "viewer") },
	} {
		if _, err := step(); err != nil {
			t.Fatal(err)
		}
	}
}

// whereData decodes GET /api/where_can's data.
func whereData(t *testing.T, body map[string]any) (bool, []string) {
	t.Helper()
	d, ok := body["data"].(map[string]any)
	if !ok || len(d) != 2 {
		t.Fatalf("data %v, want {global, scopes}", body["data"])
	}
	global, ok := d["global"].(bool)
	if !ok {
		t.Fatalf("global %v", d["global"])
	}
	raw, ok := d["scopes"].([]any)
	if !ok {
		t.Fatalf("scopes %v", d["scopes"])
	}
	scopes := []string{}
	for _, s := range raw {
		scopes = append(scopes, s.(string))
	}
	return global, scopes
}

func TestRESTWhereCan(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, _ storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		key := newKey()
		whereSetup(t, mustClient(t, az, key))
		for _, tc := range []struct {
			path   string
			global bool
			scopes []string
			total  string
		}{
			{"/api/where_can/alice/read", false, []string{"org-1", "org-2", "org-3"}, "3"},
			{"/api/where_can/alice/edit", false, []string{"org-2"}, "1"},
			{"/api/where_can/alice/delete", false, []string{}, "0"},
			{"/api/where_can/bob/read", true, []string{}, "0"},
			{"/api/where_can/nobody/read", false, []string{}, "0"},
			{"/api/where_can/alice/read?limit=2", false, []string{"org-1", "org-2"}, "3"},
			{"/api/where_can/alice/read?limit=2&after=org-2", false, []string{"org-3"}, "3"},
			{"/api/where_can/alice/read?after=org-15", false, []string{"org-2", "org-3"}, "3"},
			{"/api/where_can/alice/read?after=org-3", false, []string{}, "3"},
		} {
			w := performRequest(e, http.MethodGet, tc.path, key, nil)
			global, scopes := whereData(t, checkEnvelope(t, w, http.StatusOK))
			if global != tc.global || !slices.Equal(scopes, tc.scopes) {
				t.Errorf("%s: %v %q, want %v %q", tc.path, global, scopes, tc.global, tc.scopes)
			}
			if got := w.Header().Get(middleware.HeaderTotalCount); got != tc.total {
				t.Errorf("%s: X-Total-Count %q, want %s", tc.path, got, tc.total)
			}
		}
		// A write's token is honoured; the answer follows the write.
		w := performRequest(e, http.MethodPost, "/api/membership/alice/viewer", key, nil)
		checkEnvelope(t, w, http.StatusCreated)
		tok := w.Header().Get(rest.RevisionHeader)
		global, _ := whereData(t, checkEnvelope(t, performRequest(e, http.MethodGet, "/api/where_can/alice/read?at_least="+tok, key, nil), http.StatusOK))
		if !global {
			t.Errorf("after a global membership, where_can is not global")
		}
		for _, bad := range []string{
			"/api/where_can/%20alice/read", "/api/where_can/alice/%00", "/api/where_can/alice/read?limit=0",
			"/api/where_can/alice/read?scope=org-1", "/api/where_can/alice/read?at_least=nonsense",
		} {
			checkEnvelope(t, performRequest(e, http.MethodGet, bad, key, nil), http.StatusBadRequest)
		}
		checkEnvelope(t, performRequest(e, http.MethodGet, "/api/where_can/alice/read", "", nil), http.StatusUnauthorized)
	})
}

// checkBody is a POST /api/check body of checks given as user/permission
// or user/permission@scope.
func checkBody(checks ...string) string {
	var out []string
	for _, c := range checks {
		up, scope, scoped := strings.Cut(c, "@")
		user, perm, _ := strings.Cut(up, "/")
		if scoped {
			out = append(out, fmt.Sprintf(`{"user":%q,"permission":%q,"scope":%q}`, user, perm, scope))
		} else {
			out = append(out, fmt.Sprintf(`{"user":%q,"permission":%q}`, user, perm))
		}
	}
	return `{"checks":[` + strings.Join(out, ",") + `]}`
}

func checkResultsOf(t *testing.T, body map[string]any) []bool {
	t.Helper()
	d, _ := body["data"].(map[string]any)
	raw, ok := d["results"].([]any)
	if !ok {
		t.Fatalf("data %v, want {results}", body["data"])
	}
	out := []bool{}
	for _, r := range raw {
		out = append(out, r.(bool))
	}
	return out
}

func TestRESTCheck(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, _ storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		key := newKey()
		whereSetup(t, mustClient(t, az, key))
		post := func(body string, query string) *httptest.ResponseRecorder {
			return performRequest(e, http.MethodPost, "/api/check"+query, key, strings.NewReader(body), "Content-Type", "application/json")
		}
		w := post(checkBody("alice/read", "alice/read@org-1", "alice/edit@org-1", "alice/edit@org-2", "bob/read@org-9", "bob/edit", "nobody/read@org-1", "alice/read@org-4"), "")
		got := checkResultsOf(t, checkEnvelope(t, w, http.StatusOK))
		if want := []bool{false, true, false, true, true, false, false, false}; !slices.Equal(got, want) {
			t.Errorf("results %v, want %v", got, want)
		}
		if w.Header().Get(rest.RevisionHeader) != "" {
			t.Errorf("a read answered a revision")
		}
		for _, body := range []string{`{"checks":[]}`, `{"checks":null}`, `{}`} {
			if got := checkResultsOf(t, checkEnvelope(t, post(body, ""), http.StatusOK)); len(got) != 0 {
				t.Errorf("%s: results %v", body, got)
			}
		}
		// ?at_least is a read's.
		w = performRequest(e, http.MethodPost, "/api/membership/alice/editor?scope=org-1", key, nil)
		checkEnvelope(t, w, http.StatusCreated)
		got = checkResultsOf(t, checkEnvelope(t, post(checkBody("alice/edit@org-1"), "?at_least="+w.Header().Get(rest.RevisionHeader)), http.StatusOK))
		if !slices.Equal(got, []bool{true}) {
			t.Errorf("after the membership: %v", got)
		}

		// Refusals name the check.
		many := make([]string, rest.MaxChecks+1)
		for i := range many {
			many[i] = "alice/read"
		}
		for _, tc := range []struct{ body, want string }{
			{checkBody("alice/read", "alice/read", "alice/ read"), "check 2: invalid name: permission must be"},
			{checkBody("alice/read", "/read"), "check 1: invalid name: user must be"},
			{`{"checks":[{"user":"alice","permission":"read","scope":""}]}`, "check 0: invalid name: scope must be"},
			{`{"checks":[{"user":"alice","permission":"read"},{"user":"alice","permission":"read","role":"x"}]}`, "check 1: must be"},
			{`{"checks":[{"user":"alice","permission":7}]}`, "check 0: must be"},
			{checkBody(many...), fmt.Sprintf("check %d: at most %d checks", rest.MaxChecks, rest.MaxChecks)},
			{`{"checks":[]`, `a "checks" list`},
			{`{"checks":[],"more":1}`, `a "checks" list`},
			{`[]`, `a "checks" list`},
			{``, `a "checks" list`},
			{`{"checks":[]} {}`, `a "checks" list`},
		} {
			body := checkEnvelope(t, post(tc.body, ""), http.StatusBadRequest)
			if d, _ := body["error"].(string); !strings.Contains(d, tc.want) {
				t.Errorf("%.60s: error %q, want it to contain %q", tc.body, d, tc.want)
			}
		}
		// Exactly MaxChecks pass.
		got = checkResultsOf(t, checkEnvelope(t, post(checkBody(many[:rest.MaxChecks]...), ""), http.StatusOK))
		if len(got) != rest.MaxChecks || slices.Contains(got, true) {
			t.Errorf("%d results", len(got))
		}
		big := `{"checks":[` + strings.Repeat(" ", rest.MaxCheckBodyBytes) + `]}`
		checkEnvelope(t, post(big, ""), http.StatusRequestEntityTooLarge)
	})
}

// In open mode, POST /api/check is one read in flight, whatever its
// number of checks.
func TestOpenModeCheckIsOneRead(t *testing.T) {
	az, _ := openREST(t, storagetest.SQLite(t), func(c *Config) { c.MaxReadsInFlight = 2 })
	e := newTestRouter(t, az, "")
	key := newKey()
	whereSetup(t, mustClient(t, az, key))
	fp := mustClient(t, az, key).fingerprint
	release, err := az.readGate.Acquire(fp)
	if err != nil {
		t.Fatal(err)
	}
	many := make([]string, 500)
	for i := range many {
		many[i] = fmt.Sprintf("user-%d/read@org-%d", i, i)
	}
	body := checkBody(many...)
	post := func() *httptest.ResponseRecorder {
		return performRequest(e, http.MethodPost, "/api/check", key, strings.NewReader(body), "Content-Type", "application/json")
	}
	checkEnvelope(t, post(), http.StatusOK)
	checkEnvelope(t, performRequest(e, http.MethodGet, "/api/where_can/alice/read", key, nil), http.StatusOK)
	release2, err := az.readGate.Acquire(fp)
	if err != nil {
		t.Fatal(err)
	}
	w := post()
	checkEnvelope(t, w, http.StatusTooManyRequests)
	if w.Header().Get("Retry-After") == "" {
		t.Errorf("429 without Retry-After")
	}
	checkEnvelope(t, performRequest(e, http.MethodGet, "/api/where_can/alice/read", key, nil), http.StatusTooManyRequests)
	release()
	release2()
	checkEnvelope(t, post(), http.StatusOK)
}

// TestRESTWhereCanMatchesTheLibrary: the JSON of a Where is the REST
// data without paging.
func TestRESTWhereCanMatchesTheLibrary(t *testing.T) {
	az, _ := openREST(t, storagetest.SQLite(t), nil)
	e := newTestRouter(t, az, "")
	key := newKey()
	cl := mustClient(t, az, key)
	whereSetup(t, cl)
	for _, u := range []string{"alice", "bob", "nobody"} {
		where, err := cl.WhereCan(t.Context(), u, "read")
		if err != nil {
			t.Fatal(err)
		}
		lib, _ := json.Marshal(where)
		var rest struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(performRequest(e, http.MethodGet, "/api/where_can/"+u+"/read", key, nil).Body.Bytes(), &rest); err != nil {
			t.Fatal(err)
		}
		if string(lib) != string(rest.Data) {
			t.Errorf("%s: library %s, REST %s", u, lib, rest.Data)
		}
	}
}

// In open mode the bodies of POST /api/check are held within one bound of
// all clients (429 past it, with Retry-After) and must come at the least
// pace, as batch bodies do: a body sent a byte at a time is 408.
func TestOpenModeCheckBodies(t *testing.T) {
	az := openTarget(t, storagetest.SQLite(t), nil)
	if !az.open() || az.checkBytes == nil {
		t.Fatal("want open mode, with its bound on check bodies")
	}
	srv := httptest.NewServer(newTestRouter(t, az, ""))
	t.Cleanup(srv.Close)
	key := newKey()
	body := []byte(checkBody("alice/read", "bob/read@org-1"))
	httpDo(t, srv, http.MethodPost, "/api/check", key, body, http.StatusOK)

	// The bound taken by others: 429, and nothing held after.
	if err := az.checkBytes.Take(maxCheckBodyBytesHeld); err != nil {
		t.Fatal(err)
	}
	httpDo(t, srv, http.MethodPost, "/api/check", key, body, http.StatusTooManyRequests)
	az.checkBytes.Give(maxCheckBodyBytesHeld)
	httpDo(t, srv, http.MethodPost, "/api/check", key, body, http.StatusOK)
	if used := az.checkBytes.Used(); used != 0 {
		t.Fatalf("%d bytes still held after the requests", used)
	}

	// A body a byte at a time.
	addr := strings.TrimPrefix(srv.URL, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/check HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", addr, key, 64<<10)
	start := time.Now()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("slow body: %d, want 408", resp.StatusCode)
	}
	t.Logf("slow body answered 408 after %v", time.Since(start).Round(time.Millisecond))
	if used := az.checkBytes.Used(); used != 0 {
		t.Fatalf("%d bytes still held after the slow body", used)
	}
}
