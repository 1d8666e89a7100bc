package browsertest_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
	_ "github.com/rolegate/rolegate/authz/sqlite" // the default store: a SQLite file
)

const adminKey = "6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b"

// storedKey reads the key the console keeps in the tab.
const storedKey = `sessionStorage.getItem('rolegate.console.key') || ''`

// chromiumPath finds headless Chromium: AUTH_TEST_CHROMIUM, else chromium
// on PATH. Without it the browser test skips, except under CI=true where
// it fails (.ci/run installs Debian's chromium package).
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("AUTH_TEST_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed; the console's browser test needs it under CI (apt-get install chromium)")
	}
	t.Skip("chromium not found; install it (apt-get install chromium) to run the console's browser test")
	return ""
}

// artifacts is where screenshots go: AUTH_TEST_ARTIFACTS, else a
// temporary directory.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("AUTH_TEST_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	dir = filepath.Join(dir, "console")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newHostApp serves rolegate mounted under /auth on a real SQLite store,
// on loopback, with one admin key.
func newHostApp(t *testing.T) string {
	t.Helper()
	return newHostAppWith(t, "/auth", func(r *gin.Engine) {
		r.UseRawPath = true
		r.UnescapePathValues = true
		r.RedirectTrailingSlash = false
	})
}

// newHostAppWith is newHostApp with the host's own engine settings.
func newHostAppWith(t *testing.T, mount string, settings func(*gin.Engine)) string {
	t.Helper()
	url, _ := newHostAppCounting(t, mount, settings)
	return url
}

// requestCounter counts the requests that reach the REST API (paths
// holding "/api/"), so that a test can bound what a page costs.
type requestCounter struct {
	mu    sync.Mutex
	paths []string
}

func (rc *requestCounter) add(p string) {
	rc.mu.Lock()
	rc.paths = append(rc.paths, p)
	rc.mu.Unlock()
}

// take returns the requests counted since the last take, and forgets them.
func (rc *requestCounter) take() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	p := rc.paths
	rc.paths = nil
	return p
}

// newHostAppCounting is newHostAppWith with a counter of the API requests
// in front of the host app.
func newHostAppCounting(t *testing.T, mount string, settings func(*gin.Engine)) (string, *requestCounter) {
	t.Helper()
	gin.SetMode(gin.ReleaseMode)
	cfg := authz.DefaultConfig()
	cfg.SQLitePath = filepath.Join(t.TempDir(), "auth.sqlite3")
	cfg.ClientKey = adminKey
	cfg.Logger = slog.New(slog.DiscardHandler)
	az, _ := openHost(t, cfg)
	r := gin.New()
	settings(r)
	if err := az.Mount(r.Group(mount)); err != nil {
		t.Fatal(err)
	}
	rc := &requestCounter{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if strings.Contains(req.URL.Path, "/api/") {
			rc.add(req.Method + " " + req.URL.RequestURI())
		}
		r.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + mount + "/console/", rc
}

// browser starts headless Chromium with a fresh profile and collects what
// the page reports as wrong: console errors and warnings, uncaught
// exceptions, and Content-Security-Policy violations.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
}

func newBrowser(t *testing.T, exe string) *browser {
	t.Helper()
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	// The first Run starts the browser; it must not carry a timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	b := &browser{ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning ||
				ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				b.problem("console." + string(ev.Type) + ": " + strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			text := d.Text
			if d.Exception != nil {
				text += " " + d.Exception.Description
			}
			b.problem("exception: " + text)
		case *cdplog.EventEntryAdded:
			// A refused request (the wrong key's 401) is logged by the
			// network; anything else of level error is a problem.
			if ev.Entry.Level == cdplog.EntryLevelError && ev.Entry.Source != cdplog.EntrySourceNetwork {
				b.problem("log " + string(ev.Entry.Source) + ": " + ev.Entry.Text)
			}
		}
	})
	if err == nil {
		// Scripts added through DevTools are not subject to the page's
		// CSP; this one reports every violation as a console error.
		_, err = chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `document.addEventListener('securitypolicyviolation',
				e => console.error('CSP violation:', e.violatedDirective, e.blockedURI));`})
	}
	if err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return b
}

func (b *browser) problem(s string) {
	b.mu.Lock()
	b.problems = append(b.problems, s)
	b.mu.Unlock()
}

func (b *browser) check(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		t.Errorf("browser reported: %s", p)
	}
	b.problems = nil
}

type step = chromedp.Action[chromedp.Void]

// run runs the steps of one part of the flow, within a minute, and fails
// the test with the page's HTML when one fails.
func (b *browser) run(t *testing.T, name string, steps ...step) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		html, _ := chromedp.Run(b.ctx, chromedp.OuterHTML(chromedp.CSS("body")))
		t.Fatalf("%s: %v\npage: %s", name, err, html)
	}
	b.check(t)
}

// value evaluates expression in the page.
func value[T any](t *testing.T, b *browser, expression string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expression))
	if err != nil {
		t.Fatalf("%s: %v", expression, err)
	}
	return v
}

// waitText waits until the element matching sel contains text.
func waitText(sel, text string) step {
	return chromedp.Poll[chromedp.Void](fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && e.textContent.includes(%q); })()`, sel, text),
		chromedp.WithPollingTimeout(15*time.Second))
}

// waitNoText waits until the element matching sel exists without text.
func waitNoText(sel, text string) step {
	return chromedp.Poll[chromedp.Void](fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && !e.textContent.includes(%q); })()`, sel, text),
		chromedp.WithPollingTimeout(15*time.Second))
}

func goTo(hash string) step {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`void (location.hash = %q)`, hash), chromedp.EvalIgnoreExceptions)
}

// enabled waits until the field labelled by id can take keys: a page
// shows its heading before its data has loaded, and its form stays
// disabled until then (keys sent meanwhile fail as "not focusable").
func enabled(id string) step {
	return chromedp.Poll[chromedp.Void](fmt.Sprintf(`(() => { const e = document.getElementById(%q); return !!e && !e.matches(':disabled'); })()`, id),
		chromedp.WithPollingTimeout(15*time.Second))
}

// fill types value into the field labelled by id, replacing what it holds.
func fill(id, value string) step {
	return chromedp.Steps(
		enabled(id),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = '';
			e.dispatchEvent(new Event('input', {bubbles: true})); })()`, id)),
		chromedp.SendKeys(chromedp.ID(id), value),
	)
}

// submit presses Enter in the field: the keyboard, not the mouse.
func submit(id string) step {
	return chromedp.Steps(enabled(id), chromedp.SendKeys(chromedp.ID(id), kb.Enter))
}

// unlabelled finds what a keyboard or screen reader user could not use:
// inputs without a label, buttons and links without a name, anything
// clickable that is not a button or a link.
const unlabelled = `[
  ...[...document.querySelectorAll('input, select, textarea')].filter(e => e.labels.length === 0 && !e.getAttribute('aria-label')).map(e => 'input#' + e.id),
  ...[...document.querySelectorAll('button, a[href]')].filter(e => !(e.getAttribute('aria-label') || e.textContent).trim()).map(e => e.outerHTML),
  ...[...document.querySelectorAll('[onclick], div[tabindex], span[tabindex]')].map(e => e.outerHTML),
]`

func screenshot(dir, name string) step {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		buf, err := chromedp.FullScreenshot(100)(ctx, t)
		if err != nil {
			return chromedp.Void{}, err
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644); err != nil {
			return chromedp.Void{}, err
		}
		// Each page that gets a screenshot is also checked for controls
		// without a name.
		bad, err := chromedp.Evaluate[[]string](unlabelled)(ctx, t)
		if err == nil && len(bad) > 0 {
			err = fmt.Errorf("%s: controls without a label or name: %q", name, bad)
		}
		return chromedp.Void{}, err
	}
}

// TestConsoleInBrowser drives the console in headless Chromium through
// the flow of an administrator: a wrong key refused, sign in, create a
// role, grant, add a member, see the check turn true with its "why", who
// can, delete the role with its cascade named, see the member lose the
// permission, the audit log; and a narrow screen without horizontal
// scrolling. Screenshots of each page go to AUTH_TEST_ARTIFACTS.
func TestConsoleInBrowser(t *testing.T) {
	exe := chromiumPath(t)
	url := newHostApp(t)
	dir := artifacts(t)
	b := newBrowser(t, exe)

	b.run(t, "open", chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#client-key")))
	b.run(t, "wrong key refused",
		fill("client-key", "0e9c6b8a-1d2f-4e3a-9b4c-5d6e7f8a9b0c"), submit("client-key"),
		chromedp.WaitVisible(chromedp.CSS("#signin-error")),
		screenshot(dir, "01-signin-refused"))
	msg := value[string](t, b, `document.querySelector('#signin-error').textContent`)
	if !strings.Contains(msg, "client key is not accepted") {
		t.Errorf("the refusal shows %q, want the envelope's message about the key", msg)
	}
	if stored := value[string](t, b, storedKey); stored != "" {
		t.Errorf("a refused key was kept: %q", stored)
	}

	b.run(t, "sign in",
		fill("client-key", adminKey), submit("client-key"),
		waitText("#roles-list", "No roles yet"))
	if cookies := value[string](t, b, `document.cookie + ' ' + location.href`); strings.Contains(cookies, adminKey) {
		t.Errorf("the key leaked into a cookie or the URL: %q", cookies)
	}

	b.run(t, "create a role",
		fill("new-role", "editor"), fill("new-role-desc", "Can edit notes"), submit("new-role"),
		waitText("#roles-list", "editor"), waitText("#new-role-status", "Role editor created"))
	b.run(t, "create a parent role",
		fill("new-role", "reader"), submit("new-role"), waitText("#roles-list", "reader"),
		screenshot(dir, "02-roles"))

	b.run(t, "grant on the role page",
		goTo("#/role/reader"), waitText("h1", "Role reader"),
		fill("grant-name", "read"), submit("grant-name"), waitText("#grants-list", "read"),
		goTo("#/role/editor"), waitText("h1", "Role editor"), waitText("#role-desc", "Can edit notes"),
		fill("grant-name", "edit"), submit("grant-name"), waitText("#grants-list", "edit"),
		fill("parent-name", "reader"), submit("parent-name"), waitText("#parents-list", "reader"),
		fill("member-user", "alice"), submit("member-user"), waitText("#members-list", "alice"),
		chromedp.Click(chromedp.CSS("#effective summary")),
		chromedp.Click(chromedp.CSS(`button[aria-label="Where from? read"]`)),
		waitText("#effective-list", "inherited from reader (editor → reader)"),
		screenshot(dir, "03-role"))

	b.run(t, "the parent lists the role inheriting from it",
		goTo("#/role/reader"), waitText("h1", "Role reader"),
		waitText("#children-h", "(1)"), chromedp.Click(chromedp.CSS("#children summary")),
		waitText("#children-list", "editor"))

	b.run(t, "a scoped member",
		goTo("#/members"), waitText("h1", "Members"),
		fill("m-user", "bob"), fill("m-role", "reader"), fill("m-scope", "org-1"), submit("m-user"),
		waitText("#scoped-list", "bob is a member of reader"),
		screenshot(dir, "04-members"))

	b.run(t, "the user's view: the check is true, with why",
		goTo("#/user/alice"), waitText("h1", "User alice"),
		waitText("#user-roles", "editor"), waitText("#user-perms", "read"),
		fill("check-perm", "read"), submit("check-perm"),
		waitText("#check-result", "alice can read globally: yes"),
		waitText("#check-result", "member of editor globally, which inherits along editor → reader; granted to reader"),
		chromedp.Click(chromedp.CSS(`button[aria-label="Why? edit"]`)),
		waitText("#user-perms", "granted to editor"),
		screenshot(dir, "05-user"))

	b.run(t, "who can",
		goTo("#/whocan/read"), waitText("#whocan-users", "alice"), waitText("#whocan-roles", "editor"),
		screenshot(dir, "06-whocan"))

	b.run(t, "delete the role: the confirmation names the cascade",
		goTo("#/roles"), waitText("#roles-list", "editor"),
		chromedp.Click(chromedp.CSS(`button[aria-label="Delete role editor"]`)),
		waitText("#del-what", "1 global membership: alice"),
		waitText("#del-what", "1 permission: edit"),
		waitText("#del-what", "1 parent link (it inherits from): reader"),
		waitText("#del-what", "0 child links"),
		waitText("#del-what", "0 memberships in a scope"),
		screenshot(dir, "07-delete-confirm"),
		fill("confirm-name", "editor"),
		chromedp.Click(chromedp.CSS("#confirm-delete")),
		waitText("#roles-status", "Role editor deleted, with 1 membership and 1 permission"),
		waitNoText("#roles-list", "editor"))

	b.run(t, "the member lost the permission",
		goTo("#/user/alice"), waitText("h1", "User alice"), waitText("#user-roles", "Member of no role"),
		fill("check-perm", "edit"), submit("check-perm"), waitText("#check-result", "alice cannot edit"))

	b.run(t, "audit log, newest first, filtered",
		goTo("#/audit"), waitText("#audit-table tbody", "del_role"),
		screenshot(dir, "08-audit"))
	if first := value[string](t, b, `document.querySelector('#audit-table tbody tr td:nth-child(2)').textContent`); first != "del_role" {
		t.Errorf("newest audit record is %q, want del_role", first)
	}
	b.run(t, "filter by action",
		fill("audit-action", "add_role"), submit("audit-action"),
		waitNoText("#audit-table tbody", "del_role"), waitText("#audit-table caption", "action add_role"),
		waitText("#audit-table tbody", "add_role"))
	actions := value[[]string](t, b, `[...document.querySelectorAll('#audit-table tbody tr td:nth-child(2)')].map(e => e.textContent)`)
	if len(actions) != 2 {
		t.Errorf("add_role records: %q, want the two roles'", actions)
	}
	for _, a := range actions {
		if a != "add_role" {
			t.Errorf("filtered audit shows %q", a)
		}
	}

	for _, pg := range []struct{ hash, wait, name string }{
		{"#/roles", "#roles-list", "narrow-roles"},
		{"#/role/reader", "#grants-list", "narrow-role"},
		{"#/user/alice", "#user-roles", "narrow-user"},
		{"#/audit", "#audit-table", "narrow-audit"},
	} {
		b.run(t, "narrow "+pg.hash,
			chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
			goTo(pg.hash), chromedp.WaitVisible(chromedp.CSS(pg.wait)),
			chromedp.Sleep(200*time.Millisecond),
			screenshot(dir, pg.name))
		if value[bool](t, b, `document.documentElement.scrollWidth > document.documentElement.clientWidth`) {
			t.Errorf("%s scrolls sideways at 390 px", pg.hash)
		}
	}

	b.run(t, "Escape cancels a delete, focus back on its button",
		chromedp.EmulateViewport(1280, 900), goTo("#/roles"), waitText("#roles-list", "reader"),
		chromedp.Click(chromedp.CSS(`button[aria-label="Delete role reader"]`)),
		chromedp.WaitVisible(chromedp.CSS("#delete-dialog")), waitText("#del-what", "1 permission: read"),
		waitText("#del-what", "1 membership in a scope"),
		chromedp.KeyEvent(kb.Escape),
		chromedp.WaitNotPresent(chromedp.CSS("#delete-dialog")),
		chromedp.Poll[chromedp.Void](`document.activeElement && document.activeElement.getAttribute('aria-label') === 'Delete role reader'`,
			chromedp.WithPollingTimeout(5*time.Second)),
		waitText("#roles-list", "reader"))

	b.run(t, "an error shows the envelope's message",
		chromedp.EmulateViewport(1280, 900), goTo("#/roles"), waitText("h1", "Roles"),
		fill("new-role", " padded"), submit("new-role"),
		waitText("#new-role-status", "leading or trailing"))

	// Lists page: 60 more roles, through the REST API as any client would.
	api := strings.TrimSuffix(url, "console/") + "api/"
	for i := range 60 {
		req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%srole/bulk-%02d", api, i), nil)
		req.Header.Set("Authorization", "Bearer "+adminKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	b.run(t, "lists page",
		goTo("#/audit"), waitText("h1", "Audit log"), goTo("#/roles"),
		waitText("#roles-list", "bulk-00"), waitText(".pager", "Page 1"))
	if n := value[int](t, b, `document.querySelectorAll('#roles-list li').length`); n != 50 {
		t.Errorf("first page shows %d roles, want 50", n)
	}
	b.run(t, "next page",
		chromedp.Click(chromedp.CSS(`#roles-list .pager button:last-of-type`)),
		waitText(".pager", "Page 2"), waitText("#roles-list", "reader"), waitNoText("#roles-list", "bulk-00"))
	if n := value[int](t, b, `document.querySelectorAll('#roles-list li').length`); n != 11 {
		t.Errorf("second page shows %d roles, want 11 (bulk-50 to bulk-59 and reader)", n)
	}

	b.run(t, "remove a scoped membership",
		goTo("#/members"), waitText("#scoped-list", "bob is a member of reader"),
		chromedp.Click(chromedp.CSS(`button[aria-label="Remove bob from reader in scope org-1"]`)),
		waitText("#scoped-list", "No scoped memberships"), waitText("#scoped-status", "bob is no longer a member of reader in scope org-1"))

	b.run(t, "sign out forgets the key",
		chromedp.EmulateViewport(1280, 900), chromedp.Click(chromedp.CSS(".signout")),
		chromedp.WaitVisible(chromedp.CSS("#client-key")))
	if value[string](t, b, storedKey) != "" {
		t.Errorf("the key stayed after signing out")
	}
	t.Logf("screenshots in %s", dir)
}
