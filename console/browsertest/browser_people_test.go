package browsertest_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/middleware"
)

// newPeopleHostApp serves rolegate under /auth with people on the admin
// plane: the host's user comes from X-User, as an authenticating proxy in
// front of it would set it (the browser adds it to every request it
// sends, as it would send the proxy's cookie). boss holds rolegate.admin
// through a membership the key made.
func newPeopleHostApp(t *testing.T) (string, *authz.Client) {
	t.Helper()
	gin.SetMode(gin.ReleaseMode)
	cfg := authz.DefaultConfig()
	cfg.SQLitePath = filepath.Join(t.TempDir(), "auth.sqlite3")
	cfg.ClientKey = adminKey
	cfg.AdminUsers = true
	cfg.Resolver = middleware.HeaderResolver("X-User")
	cfg.Logger = slog.New(slog.DiscardHandler)
	r, host := mountWithAdmin(t, cfg, "boss")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: r}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL + "/auth/console/", host
}

// as makes every request of the browser carry X-User: user.
func as(user string) step {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"X-User": user}})
		return err
	})
}

// TestConsolePeople: signed in through the host's session, an admin does
// the walkthrough's tasks (a delegated admin of org-1 made by a role
// holding rolegate.members and a membership in org-1), and the audit log
// names her; the delegated admin sees only the members she may change
// and adds one; a form on another site posting to the admin API is
// refused and stores nothing.
func TestConsolePeople(t *testing.T) {
	exe := chromiumPath(t)
	url, host := newPeopleHostApp(t)
	dir := artifacts(t)
	ctx := context.Background()

	b := newBrowser(t, exe)
	b.run(t, "signed in through the host's session", as("boss"), chromedp.Navigate(url),
		waitText("#signed-in-as", "Signed in as boss"), waitText("#roles-list", "admins"))
	b.run(t, "roles to hand out",
		fill("new-role", "viewer"), submit("new-role"), waitText("#roles-list", "viewer"),
		fill("new-role", "org-admins"), submit("new-role"), waitText("#roles-list", "org-admins"),
		goTo("#/role/viewer"), waitText("h1", "Role viewer"),
		fill("grant-name", "notes.read"), submit("grant-name"), waitText("#grants-list", "notes.read"),
		goTo("#/role/org-admins"), waitText("h1", "Role org-admins"),
		fill("grant-name", authz.PermMembers), submit("grant-name"), waitText("#grants-list", authz.PermMembers),
		fill("grant-name", "notes.read"), submit("grant-name"), waitText("#grants-list", "notes.read"))
	b.run(t, "a delegated admin of org-1",
		goTo("#/members"), waitText("h1", "Members"),
		fill("m-user", "mia"), fill("m-role", "org-admins"), fill("m-scope", "org-1"), submit("m-user"),
		waitText("#scoped-list", "mia is a member of org-admins"))
	b.run(t, "the audit names the person",
		goTo("#/audit"), waitText("#audit-table tbody", "add_membership"), waitText("#audit-table tbody", "user:boss"),
		screenshot(dir, "people-01-admin-audit"))
	if who := value[string](t, b, `document.querySelector('#audit-table tbody tr td.actor').textContent`); who != "user:boss" {
		t.Errorf("the newest record's actor is %q, want user:boss", who)
	}

	m := newBrowser(t, exe)
	m.run(t, "the delegated admin sees only what she may change", as("mia"), chromedp.Navigate(url),
		waitText("#signed-in-as", "Signed in as mia"), waitText("main", "Scope org-1"))
	if nav := value[int](t, m, `document.querySelectorAll('nav[aria-label="Console"] a').length`); nav != 0 {
		t.Errorf("the delegated admin sees %d console pages, want none beyond her own", nav)
	}
	options := value[[]string](t, m, `[...document.querySelectorAll('select option')].map(o => o.value)`)
	if strings.Join(options, ",") != "viewer" {
		t.Errorf("she may hand out %q, want only viewer (not admins, not org-admins, which hold reserved names)", options)
	}
	m.run(t, "she adds a member in org-1",
		fill("d-org-1-user", "zoe"), submit("d-org-1-user"),
		waitText("#d-org-1-status", "zoe is now a member of viewer in scope org-1"),
		waitText("#members-viewer", "zoe"),
		screenshot(dir, "people-02-delegated"))
	if ok, err := host.UserHasPermissionIn(ctx, "org-1", "zoe", "notes.read"); err != nil || !ok {
		t.Errorf("zoe in org-1: %v %v", ok, err)
	}
	recs, err := host.AuditRecordsWhere(ctx, authz.AuditQuery{Actor: "user:mia"})
	if err != nil || len(recs) == 0 || recs[0].Action != "add_membership" {
		t.Errorf("mia's audit records: %+v %v", recs, err)
	}

	// Another site (localhost is not the site of 127.0.0.1) posts an empty
	// form, which every POST route would take as a body, to create a role.
	target := strings.TrimSuffix(url, "console/") + "api/role/evil"
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><form id="f" method="post" action=%q></form><script>document.getElementById('f').submit()</script>`, target)
	}))
	t.Cleanup(evil.Close)
	evilURL := strings.Replace(evil.URL, "127.0.0.1", "localhost", 1)
	b.run(t, "a cross-site form post is refused", chromedp.Navigate(evilURL),
		waitText("body", "cross-site request refused"))
	b.check(t)
	if r, err := host.GetRole(ctx, "evil"); !errors.Is(err, authz.ErrRoleNotFound) {
		t.Errorf("the cross-site post created %+v (%v)", r, err)
	}
}
