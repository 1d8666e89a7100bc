package browsertest_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rolegate/rolegate/authz"
)

// TestConsoleAdminDay is issue 38's day, each numbered point a subtest,
// on a namespace of 10,000 users and 1,001 roles: every page's time is
// printed, axe-core runs on every page (0 serious violations), and the
// user and role pages are run at 390 px too.
func TestConsoleAdminDay(t *testing.T) {
	exe := chromiumPath(t)
	src := axeSource(t)
	s := newStage(t)
	loadDay(t, s.host)
	dir := artifacts(t)
	b := newBrowser(t, exe)
	ctx := context.Background()
	b.timed(t, "sign in, roles (1,001)", chromedp.Navigate(s.url), chromedp.WaitVisible(chromedp.CSS("#client-key")),
		fill("client-key", adminKey), submit("client-key"), waitText("#roles-list-count", "1,001 roles"))
	axe(t, b, src, "roles")

	t.Run("1 a user's every scope, on a page she is worked on", func(t *testing.T) {
		b.timed(t, "user alice.anderson",
			goTo("#/user/alice.anderson"), waitText("#user-roles", "ops"), waitText("#scoped-roles-h", "(5)"),
			waitText("#user-scoped", "project:150"))
		scopes := value[[]string](t, b, `[...document.querySelectorAll('#user-scoped .scope-h')].map(e => e.textContent)`)
		if strings.Join(scopes, ",") != "Scope project:2,Scope project:7,Scope project:10,Scope project:42,Scope project:150" {
			t.Errorf("scopes %q, want project:2, 7, 10, 42, 150 in natural order (point 9)", scopes)
		}
		axe(t, b, src, "user")
		b.timed(t, "add a role in project:9 from the user page",
			fill("add-role", "role-0004"), fill("add-role-scope", "project:9"), submit("add-role"),
			waitText("#user-roles-status", "alice.anderson is now a member of role-0004 in scope project:9"),
			waitText("#scoped-roles-h", "(6)"), waitText("#user-scoped", "project:9"))
		if ok, err := s.host.HasMembershipIn(ctx, "project:9", "alice.anderson", "role-0004"); err != nil || !ok {
			t.Errorf("the membership in project:9: %v %v", ok, err)
		}
		b.timed(t, "remove it again",
			chromedp.Click(chromedp.CSS(`button[aria-label="Remove role-0004 in scope project:9"]`)),
			waitText("#user-roles-status", "no longer a member of role-0004 in scope project:9"), waitText("#scoped-roles-h", "(5)"))
		b.timed(t, "where can she perm-021",
			fill("where-perm", "perm-021"), submit("where-perm"), waitText("#where-result", "in 5 scopes"),
			waitText("#where-list", "project:42"))
		b.timed(t, "why she holds perm-021 in project:42",
			fill("perms-scope", "project:42"), submit("perms-scope"), waitText("#uperms-h", "in scope project:42"),
			waitText("#user-perms", "perm-021"),
			chromedp.Click(chromedp.CSS(`button[aria-label="Why? perm-021"]`)),
			waitText("#user-perms", "member of role-0003 in scope “project:42”"))
		b.timed(t, "rename user00010",
			goTo("#/user/user00010"), waitText("#user-roles", "role-"),
			fill("rename-to", "user00010.renamed"), submit("rename-to"),
			waitText("h1", "User user00010.renamed"), waitText("#rename-status", "user00010 renamed to user00010.renamed"),
			waitText("#user-roles", "role-"))
	})

	t.Run("3 and 4 members filtered, every list counted", func(t *testing.T) {
		b.timed(t, "members, all scopes (2,000)", goTo("#/members"), waitText("#scoped-h", "(2,000)"))
		b.timed(t, "members in project:42",
			fill("f-scope", "project:42"), submit("f-scope"), waitText("#scoped-h", "scope project:42 (11)"),
			waitNoText("#scoped-list", "project:41"))
		b.timed(t, "members of role-0003 in project:42",
			fill("f-role", "role-0003"), submit("f-role"), waitText("#scoped-h", "role role-0003 (1)"), waitText("#scoped-list", "alice.anderson"))
		b.timed(t, "members: one user's",
			goTo("#/members///alice.anderson"), waitText("#scoped-h", "user alice.anderson (5)"))
		axe(t, b, src, "members")
		b.timed(t, "role-0999: 1,520 members counted",
			goTo("#/role/role-0999"), waitText("#members-h", "(1,520)"), waitText("#members-list .pager", "Page 1 of 31"),
			waitText("#grants-h", "(30)"))
		b.timed(t, "role-0999's effective permissions counted",
			chromedp.Click(chromedp.CSS("#effective summary")), waitText("#effective-h", "(30)"))
		axe(t, b, src, "role")
		b.timed(t, "a filter on the members counts what it finds",
			fill("find-member", "user001"), waitText("#members-h", "(100 starting with “user001”)"))
		b.timed(t, "who can perm-021 counted", goTo("#/whocan/perm-021"), waitText("#wu-h", ")"), waitText("#wr-h", ")"))
		n := value[string](t, b, `document.querySelector('#wu-h').textContent`)
		if !strings.Contains(n, ",") {
			t.Errorf("who-can heading %q: want a count in the thousands", n)
		}
		axe(t, b, src, "who can")
		b.timed(t, "users (10,000 and more)", goTo("#/user"), waitText("#users-list-count", "users"))
		axe(t, b, src, "users")
	})

	t.Run("5 where am I", func(t *testing.T) {
		b.run(t, "the app's namespace", waitText("#namespace", "the app’s namespace"))
		o := newBrowser(t, exe)
		o.run(t, "another key's namespace", chromedp.Navigate(s.url), chromedp.WaitVisible(chromedp.CSS("#client-key")),
			fill("client-key", s.other), submit("client-key"), waitText("#namespace", "another namespace (key:"),
			waitText("#roles-list", "No roles yet"))
		o.run(t, "the sign-in hint says keys are namespaces", chromedp.Click(chromedp.CSS(".signout")),
			waitText("#client-key-hint", "Each key is a namespace of its own, not a user"))
	})

	t.Run("6 a safe delete", func(t *testing.T) {
		dl := t.TempDir()
		if _, err := chromedp.Call(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dl}); err != nil {
			t.Fatal(err)
		}
		b.timed(t, "find role-0999", goTo("#/roles"), fill("find-role", "role-0999"), waitText("#roles-list-count", "1 role"),
			chromedp.Sleep(300*time.Millisecond))
		s.most.Store(0)
		b.timed(t, "the delete dialog of role-0999",
			chromedp.Click(chromedp.CSS(`button[aria-label="Delete role role-0999"]`)),
			waitText("#del-what", "1,520 global memberships"),
			chromedp.Poll[chromedp.Void](`document.activeElement && document.activeElement.id === 'confirm-name'`, chromedp.WithPollingTimeout(5*time.Second)))
		if n := s.most.Load(); n != 1 {
			t.Errorf("the delete dialog had %d reads in flight at once, want them one after the other", n)
		}
		axe(t, b, src, "delete dialog")
		if !value[bool](t, b, `document.getElementById('confirm-delete').disabled`) {
			t.Errorf("the delete of a role with members is enabled before its name is typed")
		}
		b.timed(t, "export its grants and members",
			chromedp.Click(chromedp.CSS("#export-role")),
			chromedp.Poll[chromedp.Void](`!document.getElementById('export-role').disabled`, chromedp.WithPollingTimeout(20*time.Second)))
		var rows [][]string
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			files, _ := filepath.Glob(filepath.Join(dl, "*"))
			for _, f := range files {
				if data, err := os.ReadFile(f); err == nil && strings.HasSuffix(string(data), "\r\n") {
					rows, _ = csv.NewReader(strings.NewReader(string(data))).ReadAll()
				}
			}
			if len(rows) > 0 {
				break
			}
		}
		if len(rows) != 1+30+1520 {
			t.Errorf("the export holds %d rows, want a header, 30 grants and 1,520 members", len(rows))
		}
		b.timed(t, "type the name and delete",
			fill("confirm-name", "role-0999"), chromedp.Click(chromedp.CSS("#confirm-delete")),
			waitText("#roles-status", "Role role-0999 deleted, with 1,520 memberships and 30 permissions"))
		b.timed(t, "the audit says what went with it",
			goTo("#/audit"), fill("audit-action", "del_role"), fill("audit-resource", "role:role-0999"), submit("audit-action"),
			waitText("#audit-table tbody", "removed 30 grants, 1,520 global memberships, 0 scoped memberships"))
		axe(t, b, src, "audit")
		recs, err := s.host.AuditRecordsWhere(ctx, authz.AuditQuery{Action: "del_role", Resource: "role:role-0999"})
		if err != nil || len(recs) != 1 || recs[0].Detail == nil || recs[0].Detail.Memberships != 1520 {
			t.Errorf("the audit record: %+v %v", recs, err)
		}
	})

	t.Run("7 keyboard", func(t *testing.T) {
		focused := func(want string) step {
			return chromedp.Poll[chromedp.Void](`(() => { const e = document.activeElement; return !!e && (e.id === `+"`"+want+"`"+` || e.getAttribute('aria-label') === `+"`"+want+"`"+`); })()`,
				chromedp.WithPollingTimeout(5*time.Second))
		}
		b.run(t, "the first Tab reaches Skip to content",
			chromedp.Navigate("about:blank"), chromedp.Navigate(s.url+"#/role/role-0004"), waitText("#grants-list", "perm-"),
			chromedp.KeyEvent(kb.Tab),
			chromedp.Poll[chromedp.Void](`document.activeElement && document.activeElement.textContent === 'Skip to content'`, chromedp.WithPollingTimeout(5*time.Second)))
		b.run(t, "Edit description: focus in the field; Save: back on Edit",
			chromedp.Click(chromedp.CSS("#edit-desc")), focused("role-desc-edit"),
			chromedp.SendKeys(chromedp.ID("role-desc-edit"), " (edited)"), chromedp.KeyEvent(kb.Enter),
			waitText("#describe-status", "saved"), focused("edit-desc"))
		b.run(t, "a filter instead of 61 Tabs, Remove: focus on the next Remove",
			fill("find-grant", "perm-03"), waitText("#grants-h", "starting with “perm-03”"),
			chromedp.Click(chromedp.CSS(`#grants-list li:first-child button.danger`)),
			waitText("#grants-status", "Removed perm-03"),
			chromedp.Poll[chromedp.Void](`document.activeElement && (document.activeElement.getAttribute('aria-label') || '').startsWith('Remove permission perm-03')`,
				chromedp.WithPollingTimeout(5*time.Second)))
		b.run(t, "Where from? keeps the focus",
			chromedp.Click(chromedp.CSS("#effective summary")), waitText("#effective-list", "perm-"),
			chromedp.Click(chromedp.CSS(`#effective-list li:first-child button`)),
			chromedp.Poll[chromedp.Void](`[...document.querySelectorAll('#effective-list .src')].some(e => e.textContent.length > 3)`, chromedp.WithPollingTimeout(5*time.Second)),
			chromedp.Poll[chromedp.Void](`document.activeElement && (document.activeElement.getAttribute('aria-label') || '').startsWith('Where from?')`,
				chromedp.WithPollingTimeout(5*time.Second)))
		names := value[[]string](t, b, `[...document.querySelectorAll('main button[aria-label]')].filter(e => !e.getAttribute('aria-label').startsWith(e.textContent.trim())).map(e => e.outerHTML)`)
		if len(names) > 0 {
			t.Errorf("accessible names that do not start with the visible label: %q", names)
		}
	})

	t.Run("10 at 390 px", func(t *testing.T) {
		for _, pg := range []struct{ hash, wait, name string }{
			{"#/role/role-0004", "#members-list", "day-390-role"},
			{"#/user/alice.anderson", "#user-scoped", "day-390-user"},
		} {
			b.timed(t, "390 px "+pg.hash, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
				goTo(pg.hash), waitText(pg.wait, "r"), waitNoText(pg.wait, "Loading"), chromedp.Sleep(200*time.Millisecond), screenshot(dir, pg.name))
			if value[bool](t, b, `document.documentElement.scrollWidth > document.documentElement.clientWidth`) {
				t.Errorf("%s scrolls sideways at 390 px", pg.hash)
			}
			if h := value[float64](t, b, `document.querySelector('header').getBoundingClientRect().height`); h > 110 {
				t.Errorf("%s: the header is %v px high at 390 px, want it collapsed (at most 110)", pg.hash, h)
			}
			// A Remove sits on its row's line, not under the name.
			bad := value[int](t, b, `[...document.querySelectorAll('main li.row')].filter(li => { const b = li.querySelector('button.danger'); const a = li.firstElementChild;
				return b && a && b.getBoundingClientRect().top > a.getBoundingClientRect().bottom - 2; }).length`)
			if bad > 0 {
				t.Errorf("%s: %d rows put Remove under the name at 390 px", pg.hash, bad)
			}
			axe(t, b, src, pg.name)
		}
		b.run(t, "the menu opens the pages", chromedp.Click(chromedp.CSS("button.menu")),
			chromedp.WaitVisible(chromedp.CSS(`nav[aria-label="Console"] a[href="#/members"]`)), chromedp.EmulateViewport(1280, 900))
	})

	t.Run("2 every answer tied to its question, with a slow store", func(t *testing.T) {
		b.run(t, "a check's answer",
			chromedp.EmulateViewport(1280, 900), goTo("#/user/alice.anderson"), waitText("#user-roles", "ops"),
			fill("check-perm", "perm-021"), submit("check-perm"), waitText("#check-result", "cannot perm-021"),
			fill("user-scope", "project:42"))
		if got := value[string](t, b, `document.getElementById('check-result').textContent`); strings.Contains(got, "cannot") {
			t.Errorf("after the scope changed to project:42 the page still answers %q", got)
		}
		b.run(t, "the check in project:42", submit("check-perm"), waitText("#check-result", "alice.anderson can perm-021 in scope project:42: yes"))

		_, done := s.slow("GET /auth/api/members/role-0004?", 1500*time.Millisecond)
		b.run(t, "role-0004's global members", goTo("#/role/role-0004"), waitText("#members-list", "user"))
		b.run(t, "show the members in project:7, slowly",
			fill("member-scope", "project:7"), chromedp.Click(chromedp.CSS("#show-scope")), chromedp.Sleep(300*time.Millisecond))
		if n := value[int](t, b, `document.querySelectorAll('#members-list li').length`); n != 0 {
			t.Errorf("while project:7 loads, %d members of the old question are listed under its label", n)
		}
		if !strings.Contains(value[string](t, b, `document.getElementById('members-list').textContent`), "Loading") {
			t.Errorf("while project:7 loads the list does not say it is loading")
		}
		b.run(t, "project:7's members", waitText("#members-shown", "project:7"), waitNoText("#members-list", "Loading"))
		done()

		slowGrant, done := s.slow("POST /auth/api/permission/role-0005/", 1500*time.Millisecond)
		b.run(t, "grant on role-0005, then go to role-0006 before it answers",
			goTo("#/role/role-0005"), waitText("#grants-list", "perm-"), fill("grant-name", "late.perm"), submit("grant-name"),
			chromedp.Sleep(200*time.Millisecond), goTo("#/role/role-0006"), waitText("#grants-list", "perm-"),
			chromedp.Poll[chromedp.Void](`true`), chromedp.Sleep(2*time.Second))
		if slowGrant.hits.Load() != 1 {
			t.Errorf("the slow grant was sent %d times", slowGrant.hits.Load())
		}
		if got := value[string](t, b, `document.querySelector('main').textContent`); strings.Contains(got, "Granted late.perm") {
			t.Errorf("role-0006's page shows the message of a grant on role-0005")
		}
		done()

		b.run(t, "where from, then a direct grant",
			goTo("#/role/role-0004"), waitText("#grants-list", "perm-"),
			chromedp.Click(chromedp.CSS("#effective summary")), fill("find-effective", "perm-021"), waitText("#effective-list", "perm-021"),
			chromedp.Click(chromedp.CSS(`button[aria-label="Where from? perm-021"]`)), waitText("#effective-list", "inherited from"),
			fill("grant-name", "perm-021"), submit("grant-name"), waitText("#grants-status", "Granted perm-021"),
			chromedp.Sleep(500*time.Millisecond))
		if got := value[string](t, b, `document.getElementById('effective-list').textContent`); strings.Contains(got, "inherited from") {
			t.Errorf("after a direct grant of perm-021 the page still says %q", got)
		}
	})

	t.Run("8 recovery", func(t *testing.T) {
		b.run(t, "typing on role-0007", goTo("#/role/role-0007"), waitText("#grants-list", "perm-"), fill("grant-name", "half.typed"))
		_, done := s.answer("GET /auth/api/role_permissions/role-0007", http.StatusUnauthorized, 1, nil)
		b.run(t, "the key is refused (revoked) at the next read",
			fill("find-grant", "perm-0"), chromedp.WaitVisible(chromedp.CSS("#client-key")))
		done()
		b.run(t, "sign in again: the text is still there",
			fill("client-key", adminKey), submit("client-key"), waitText("h1", "Role role-0007"), enabled("grant-name"))
		if got := inputValue(t, b, "grant-name"); got != "half.typed" {
			t.Errorf("after signing in again the grant field holds %q, want half.typed", got)
		}
		_, done = s.answer("GET /auth/api/members/role-0008", http.StatusServiceUnavailable, 1, nil)
		b.run(t, "a failed list offers Retry",
			goTo("#/role/role-0008"), chromedp.WaitVisible(chromedp.CSS("#members-list button.retry")),
			chromedp.Click(chromedp.CSS("#members-list button.retry")), waitText("#members-list", "user"))
		done()
		busy, done := s.answer("GET /auth/api/role_permissions/role-0009", http.StatusTooManyRequests, 1, http.Header{"Retry-After": {"1"}})
		start := time.Now()
		b.run(t, "a 429 waits and retries once", goTo("#/role/role-0009"), waitText("#grants-list", "perm-"))
		done()
		if busy.hits.Load() != 2 || time.Since(start) < time.Second {
			t.Errorf("429: %d requests in %v, want the refused one and one retry a second later", busy.hits.Load(), time.Since(start))
		}
	})
}

// TestConsoleNewMemberNote is issue 38's point 9 on a role page: a user
// name that holds no membership yet is pointed out as it is typed (a
// typo shows before it becomes a membership of nobody), one that holds a
// membership is not, and the new user can still be added.
func TestConsoleNewMemberNote(t *testing.T) {
	exe := chromiumPath(t)
	s := newStage(t)
	ctx := context.Background()
	for _, step := range []func() (bool, error){
		func() (bool, error) { return s.host.AddRole(ctx, "ops", "Operations") },
		func() (bool, error) { return s.host.AddRole(ctx, "audit", "") },
		func() (bool, error) { return s.host.AddMembership(ctx, "bob.smith", "audit") },
	} {
		if _, err := step(); err != nil {
			t.Fatal(err)
		}
	}
	const note = "#member-user-new"
	// answered waits until the proxy has answered the console's question
	// about name (GET /api/users?prefix=NAME), then sees no note for it
	// for half a second: the answer has come, and it is "known".
	answered := func(name string) step {
		asked, done := s.slow("GET /auth/api/users?prefix="+name+"&", 0)
		return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			defer done()
			for asked.hits.Load() == 0 || s.inFlight.Load() != 0 {
				select {
				case <-ctx.Done():
					return chromedp.Void{}, fmt.Errorf("the console never asked about %q", name)
				case <-time.After(20 * time.Millisecond):
				}
			}
			end := time.Now().Add(500 * time.Millisecond)
			for time.Now().Before(end) {
				shown, err := chromedp.Evaluate[bool](`!!document.querySelector('`+note+`')`)(ctx, tg)
				if err != nil {
					return chromedp.Void{}, err
				}
				if shown {
					return chromedp.Void{}, fmt.Errorf("%q holds a membership, but the console says it holds none", name)
				}
				time.Sleep(50 * time.Millisecond)
			}
			return chromedp.Void{}, nil
		}
	}
	b := newBrowser(t, exe)
	b.timed(t, "sign in, role ops",
		chromedp.Navigate(s.url), chromedp.WaitVisible(chromedp.CSS("#client-key")),
		fill("client-key", adminKey), submit("client-key"), waitText("#roles-list", "ops"),
		goTo("#/role/ops"), waitText("h1", "Role ops"), enabled("member-user"))
	b.timed(t, "a misspelt name is pointed out",
		fill("member-user", "bob.smiht"),
		waitText(note, "“bob.smiht” holds no membership yet: check the spelling (a new user is fine)."))
	if d := value[string](t, b, `document.getElementById('member-user').getAttribute('aria-describedby') || ''`); !strings.Contains(d, "member-user-new") {
		t.Errorf("the member field is described by %q, want the note (member-user-new) among them", d)
	}
	b.timed(t, "a name that holds a membership is not", fill("member-user", "bob.smith"), answered("bob.smith"))
	b.timed(t, "nor is only its start taken for it",
		fill("member-user", "bob.s"), waitText(note, "“bob.s” holds no membership yet"))
	b.timed(t, "a new user added anyway",
		fill("member-user", "carol.new"), waitText(note, "“carol.new” holds no membership yet"), submit("member-user"),
		waitText("#members-status", "carol.new is now a global member of ops."), waitText("#members-list", "carol.new"),
		// Typed again at once (before the cleared field's own question):
		// the answer from before she held the membership is not shown.
		fill("member-user", "carol.new"), answered("carol.new"))
	if ok, err := s.host.HasMembership(ctx, "carol.new", "ops"); err != nil || !ok {
		t.Errorf("carol.new's membership of ops: %v %v", ok, err)
	}
}
