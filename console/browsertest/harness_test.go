package browsertest_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
)

// stage is a host app behind a reverse proxy of the test's own, which
// can slow chosen requests down (a slow store, as the console sees it)
// or answer them itself once (a revoked key's 401, a 429, a failure), and
// counts the API requests in flight at once.
type stage struct {
	url   string // the console, through the proxy
	api   string // the API, direct
	host  *authz.Client
	other string // a second admin key: a namespace of its own

	mu    sync.Mutex
	rules []*rule
	// inFlight and most count the API requests the proxy is passing on.
	inFlight, most atomic.Int64
}

// rule acts on the requests whose method and path (with query) contain
// match: it delays each, or answers the next times of them with status.
type rule struct {
	match  string
	delay  time.Duration
	status int
	header http.Header
	times  int
	hits   atomic.Int64
}

const otherKey = "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a"

func newStage(t *testing.T) *stage {
	t.Helper()
	gin.SetMode(gin.ReleaseMode)
	cfg := authz.DefaultConfig()
	cfg.SQLitePath = filepath.Join(t.TempDir(), "auth.sqlite3")
	cfg.ClientKey = adminKey
	cfg.ClientKeys = []string{otherKey}
	cfg.Logger = slog.New(slog.DiscardHandler)
	az, host := openHost(t, cfg)
	r := gin.New()
	r.UseRawPath = true
	r.UnescapePathValues = true
	r.RedirectTrailingSlash = false
	if err := az.Mount(r.Group("/auth")); err != nil {
		t.Fatal(err)
	}
	app := httptest.NewServer(r)
	t.Cleanup(app.Close)
	target, _ := url.Parse(app.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1
	s := &stage{host: host, other: otherKey, api: app.URL + "/auth/api/"}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if !strings.Contains(req.URL.Path, "/api/") {
			proxy.ServeHTTP(w, req)
			return
		}
		n := s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		for {
			m := s.most.Load()
			if n <= m || s.most.CompareAndSwap(m, n) {
				break
			}
		}
		what := req.Method + " " + req.URL.RequestURI()
		for _, ru := range s.matching(what) {
			if ru.status != 0 {
				if int(ru.hits.Add(1)) <= ru.times {
					for k, v := range ru.header {
						w.Header()[k] = v
					}
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(ru.status)
					fmt.Fprintf(w, `{"success":false,"code":%d,"message":"%s","error":"from the test's proxy","timestamp":"2026-01-01T00:00:00Z"}`,
						ru.status, http.StatusText(ru.status))
					return
				}
				continue
			}
			ru.hits.Add(1)
			select {
			case <-time.After(ru.delay):
			case <-req.Context().Done():
				return
			}
		}
		proxy.ServeHTTP(w, req)
	}))
	t.Cleanup(front.Close)
	s.url = front.URL + "/auth/console/"
	return s
}

func (s *stage) matching(what string) []*rule {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*rule
	for _, r := range s.rules {
		if strings.Contains(what, r.match) {
			out = append(out, r)
		}
	}
	return out
}

// slow delays the requests matching match until the returned func is called.
func (s *stage) slow(match string, d time.Duration) (*rule, func()) {
	r := &rule{match: match, delay: d}
	return r, s.add(r)
}

// answer answers the next times requests matching match with status.
func (s *stage) answer(match string, status, times int, header http.Header) (*rule, func()) {
	r := &rule{match: match, status: status, times: times, header: header}
	return r, s.add(r)
}

func (s *stage) add(r *rule) func() {
	s.mu.Lock()
	s.rules = append(s.rules, r)
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		for i, x := range s.rules {
			if x == r {
				s.rules = append(s.rules[:i], s.rules[i+1:]...)
				return
			}
		}
	}
}

// batch runs operations through the library in one transaction each of
// at most 5,000.
func batch(t *testing.T, cl *authz.Client, ops []authz.Operation) {
	t.Helper()
	ctx := context.Background()
	for len(ops) > 0 {
		n := min(len(ops), 5000)
		if _, err := cl.Batch(ctx, ops[:n]); err != nil {
			t.Fatal(err)
		}
		ops = ops[n:]
	}
}

// The namespace of issue 38's day, loaded through the library: 10,000
// users, 1,001 roles with descriptions, 30,000 grants, 100 chains of 5
// roles, 20,000 memberships of which 2,000 in scopes project:1..200;
// alice.anderson holds ops globally and roles in project:2, project:7,
// project:10, project:42 and project:150; role-0999 has 1,520 members.
func loadDay(t *testing.T, cl *authz.Client) {
	t.Helper()
	start := time.Now()
	var ops []authz.Operation
	for i := range 1000 {
		ops = append(ops, authz.Operation{Op: "add_role", Role: fmt.Sprintf("role-%04d", i), Description: fmt.Sprintf("Role number %d of the day", i)})
	}
	ops = append(ops, authz.Operation{Op: "add_role", Role: "ops", Description: "Operations"})
	for i := range 1000 {
		for j := range 30 {
			ops = append(ops, authz.Operation{Op: "add_permission", Role: fmt.Sprintf("role-%04d", i), Permission: fmt.Sprintf("perm-%03d", (i*7+j)%400)})
		}
	}
	for c := range 100 {
		for k := 1; k < 5; k++ {
			ops = append(ops, authz.Operation{Op: "add_inheritance", Role: fmt.Sprintf("role-%04d", c*5+k), Parent: fmt.Sprintf("role-%04d", c*5+k-1)})
		}
	}
	user := func(i int) string { return fmt.Sprintf("user%05d", i) }
	for i := range 18000 {
		role := fmt.Sprintf("role-%04d", i%998)
		if i < 1520 {
			role = "role-0999"
		}
		ops = append(ops, authz.Operation{Op: "add_membership", Role: role, User: user(i % 10000)})
	}
	for i := range 1995 {
		ops = append(ops, authz.Operation{Op: "add_membership", Role: fmt.Sprintf("role-%04d", i%500), User: user(i * 5),
			Scope: fmt.Sprintf("project:%d", i%200+1)})
	}
	ops = append(ops, authz.Operation{Op: "add_membership", Role: "ops", User: "alice.anderson"})
	for _, p := range []string{"project:150", "project:42", "project:7", "project:10", "project:2"} {
		ops = append(ops, authz.Operation{Op: "add_membership", Role: "role-0003", User: "alice.anderson", Scope: p})
	}
	batch(t, cl, ops)
	t.Logf("loaded the day's namespace (%d operations) in %v", len(ops), time.Since(start).Round(time.Millisecond))
}

// timed runs one page's steps and prints how long they took.
func (b *browser) timed(t *testing.T, name string, steps ...step) {
	t.Helper()
	start := time.Now()
	b.run(t, name, steps...)
	t.Logf("page time: %-58s %6d ms", name, time.Since(start).Milliseconds())
}

// axeSource is axe-core's script (npm ci in console/browsertest).
func axeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("axe-core is not installed (cd console/browsertest && npm ci): %v", err)
		}
		t.Skipf("axe-core is not installed (cd console/browsertest && npm ci): %v", err)
	}
	return string(b)
}

// axe runs axe-core on the page as it is and fails on every serious or
// critical violation, naming the rule and the nodes.
func axe(t *testing.T, b *browser, src, page string) {
	t.Helper()
	if !value[bool](t, b, `typeof axe !== 'undefined'`) {
		if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[chromedp.Void](src)); err != nil {
			t.Fatalf("injecting axe-core: %v", err)
		}
	}
	type violation struct {
		ID, Impact, Help string
		Nodes            []struct{ Target []any }
	}
	vs, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]violation](
		`axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(n => ({target: n.target}))})))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe on %s: %v", page, err)
	}
	serious := 0
	for _, v := range vs {
		if v.Impact == "serious" || v.Impact == "critical" {
			serious++
			t.Errorf("axe, %s: %s (%s): %s; %v", page, v.ID, v.Impact, v.Help, v.Nodes)
		} else {
			t.Logf("axe, %s: %s (%s): %s", page, v.ID, v.Impact, v.Help)
		}
	}
	t.Logf("axe, %s: %d violations, %d serious or critical", page, len(vs), serious)
}

// mountWithAdmin opens rolegate with cfg, makes admin a member of a role
// holding rolegate.admin (before she ever signs in: the login names its
// users provider:subject), and mounts it under /auth of a new Gin engine
// routed as a host app would.
func mountWithAdmin(t *testing.T, cfg authz.Config, admin string) (*gin.Engine, *authz.Client) {
	t.Helper()
	az, host := openHost(t, cfg)
	ctx := context.Background()
	for _, step := range []func() (bool, error){
		func() (bool, error) { return host.AddRole(ctx, "admins", "") },
		func() (bool, error) { return host.AddPermission(ctx, "admins", authz.PermAdmin) },
		func() (bool, error) { return host.AddMembership(ctx, admin, "admins") },
	} {
		if _, err := step(); err != nil {
			t.Fatal(err)
		}
	}
	r := gin.New()
	r.UseRawPath = true
	r.UnescapePathValues = true
	r.RedirectTrailingSlash = false
	if err := az.Mount(r.Group("/auth")); err != nil {
		t.Fatal(err)
	}
	return r, host
}

// openHost opens rolegate with cfg (given 30 s), closed when the test
// ends, and returns it with the host's own client.
func openHost(t *testing.T, cfg authz.Config) (*authz.Authz, *authz.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	az, err := authz.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { az.Close() })
	host, err := az.HostClient()
	if err != nil {
		t.Fatal(err)
	}
	return az, host
}
