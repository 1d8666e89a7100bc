package browsertest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gin-gonic/gin"
)

// An admin's day in the console: each test below is a wrong answer or a
// cost an administrator met, driven in headless Chromium.

// restAPI sends one request to the REST API beside the console with the
// admin key and decodes the envelope's data into out (when not nil).
type restAPI struct {
	t    *testing.T
	base string // ".../api/"
}

func newRestAPI(t *testing.T, consoleURL string) restAPI {
	return restAPI{t: t, base: strings.TrimSuffix(consoleURL, "console/") + "api/"}
}

func (a restAPI) do(method, path string, body any, out any) int {
	a.t.Helper()
	var rd *bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			a.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequest(method, a.base+path, rd)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+adminKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	var env struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   string          `json:"error"`
	}
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	if out != nil && env.Success {
		if err := json.Unmarshal(env.Data, out); err != nil {
			a.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return res.StatusCode
}

// must sends a write that has to succeed (200 or 201).
func (a restAPI) must(method, path string, body any) {
	a.t.Helper()
	if code := a.do(method, path, body, nil); code != http.StatusOK && code != http.StatusCreated {
		a.t.Fatalf("%s %s: %d", method, path, code)
	}
}

// batch runs operations in one POST /api/batch.
func (a restAPI) batch(ops ...map[string]string) {
	a.t.Helper()
	a.must(http.MethodPost, "batch", map[string]any{"operations": ops})
}

// result reads the {"result": bool} of a check.
func (a restAPI) result(path string) bool {
	a.t.Helper()
	var r struct {
		Result bool `json:"result"`
	}
	if code := a.do(http.MethodGet, path, nil, &r); code != http.StatusOK {
		a.t.Fatalf("GET %s: %d", path, code)
	}
	return r.Result
}

// signIn opens the console and signs in with the admin key.
func signIn(t *testing.T, b *browser, url string) {
	t.Helper()
	b.run(t, "sign in", chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#client-key")),
		fill("client-key", adminKey), submit("client-key"), waitText("h1", "Roles"))
}

// inputValue reads the value of the input with id.
func inputValue(t *testing.T, b *browser, id string) string {
	t.Helper()
	return value[string](t, b, fmt.Sprintf(`(document.getElementById(%q) || {value: '<absent>'}).value`, id))
}

// clickRowButton clicks the button whose text is button in the row of
// list whose first link or name reads name.
func clickRowButton(list, name, button string) step {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const li = [...document.querySelectorAll(%q + ' li')].find(li => {
			const a = li.querySelector('a, .name');
			return a && a.textContent.trim() === %q;
		});
		if (!li) throw new Error('no row ' + %q);
		const btn = [...li.querySelectorAll('button')].find(b => b.textContent.trim() === %q);
		if (!btn) throw new Error('no button ' + %q);
		btn.click();
	})()`, list, name, name, button, button))
}

// TestConsoleUserSwitchResets: after "Show user" switches from one user
// to another, nothing of the first user's check stays on the page (it
// used to say in green "user165 can users.manage: yes" under "User
// user001", with the first user's text still in the fields).
func TestConsoleUserSwitchResets(t *testing.T) {
	exe := chromiumPath(t)
	url := newHostApp(t)
	api := newRestAPI(t, url)
	api.batch(
		map[string]string{"op": "add_role", "role": "admin"},
		map[string]string{"op": "add_permission", "role": "admin", "permission": "users.manage"},
		map[string]string{"op": "add_membership", "role": "admin", "user": "user165"},
		map[string]string{"op": "add_role", "role": "viewer"},
		map[string]string{"op": "add_membership", "role": "viewer", "user": "user001"},
	)
	b := newBrowser(t, exe)
	signIn(t, b, url)
	b.run(t, "user165 can users.manage",
		goTo("#/user/user165"), waitText("h1", "User user165"),
		fill("check-perm", "users.manage"), submit("check-perm"),
		waitText("#check-result", "user165 can users.manage globally: yes"),
		fill("user-scope", "org-9"))
	b.run(t, "show user001",
		fill("lookup-user", "user001"), submit("lookup-user"),
		waitText("h1", "User user001"), waitText("#user-roles", "viewer"))
	if got := value[string](t, b, `(document.querySelector('#check-result') || {textContent: ''}).textContent`); got != "" {
		t.Errorf("user001's page shows the check %q", got)
	}
	for _, id := range []string{"check-perm", "user-scope"} {
		if got := inputValue(t, b, id); got != "" {
			t.Errorf("user001's page keeps %q in #%s", got, id)
		}
	}
	if got := inputValue(t, b, "lookup-user"); got != "user001" {
		t.Errorf("the lookup field holds %q, want user001", got)
	}
}

// TestConsoleRoleLinkResetsScope: a link from one role to another starts
// the second role's page afresh: the Scope typed on the first is gone,
// so "Add member" makes the global membership that was asked for.
func TestConsoleRoleLinkResetsScope(t *testing.T) {
	exe := chromiumPath(t)
	url := newHostApp(t)
	api := newRestAPI(t, url)
	api.batch(
		map[string]string{"op": "add_role", "role": "editor"},
		map[string]string{"op": "add_role", "role": "reader"},
		map[string]string{"op": "add_inheritance", "role": "editor", "parent": "reader"},
	)
	b := newBrowser(t, exe)
	signIn(t, b, url)
	b.run(t, "a scope typed on editor's page",
		goTo("#/role/editor"), waitText("h1", "Role editor"), waitText("#parents-list", "reader"),
		fill("member-scope", "org-2"),
		chromedp.Click(chromedp.CSS(`#parents-list a`)), waitText("h1", "Role reader"))
	if got := inputValue(t, b, "member-scope"); got != "" {
		t.Errorf("reader's page keeps the scope %q typed on editor's", got)
	}
	b.run(t, "add a member on reader's page",
		fill("member-user", "carol"), submit("member-user"), waitText("#members-list", "carol"))
	if !api.result("membership/carol/reader") {
		t.Errorf("carol is not a global member of reader")
	}
	var scoped []map[string]string
	api.do(http.MethodGet, "scoped_memberships", nil, &scoped)
	if len(scoped) != 0 {
		t.Errorf("scoped memberships nobody asked for: %v", scoped)
	}
}

// TestConsoleMembersExactRow: with a scope shown, global and scoped
// members are marked as such, and "Remove" removes exactly the row's
// membership (a global member's Remove used to say "no longer a member
// … in scope org-2" and remove nothing).
func TestConsoleMembersExactRow(t *testing.T) {
	exe := chromiumPath(t)
	url := newHostApp(t)
	api := newRestAPI(t, url)
	api.batch(
		map[string]string{"op": "add_role", "role": "ops"},
		map[string]string{"op": "add_membership", "role": "ops", "user": "alice"},
		map[string]string{"op": "add_membership", "role": "ops", "user": "bob", "scope": "org-2"},
	)
	b := newBrowser(t, exe)
	signIn(t, b, url)
	b.run(t, "show members in org-2",
		goTo("#/role/ops"), waitText("h1", "Role ops"), waitText("#members-list", "alice"),
		fill("member-scope", "org-2"),
		chromedp.Click(chromedp.CSS(`#show-scope`)),
		waitText("#members-list", "bob"))
	rows := value[[]string](t, b, `[...document.querySelectorAll('#members-list li')].map(li => li.textContent.replace(/\s+/g, ' ').trim())`)
	if len(rows) != 2 || !strings.Contains(rows[0], "global") || !strings.Contains(rows[1], "org-2") {
		t.Errorf("member rows %q: want alice marked global and bob marked with scope org-2", rows)
	}
	b.run(t, "remove the global member",
		clickRowButton("#members-list", "alice", "Remove"),
		waitNoText("#members-list", "alice"))
	if api.result("membership/alice/ops") {
		t.Errorf("alice is still a global member of ops")
	}
	if !api.result("membership/bob/ops?scope=org-2") {
		t.Errorf("bob lost his membership in org-2")
	}
	msg := value[string](t, b, `document.querySelector('main').textContent`)
	if !strings.Contains(msg, "alice is no longer a global member of ops") {
		t.Errorf("no message about alice's global membership on the page: %q", msg)
	}
	b.run(t, "remove the scoped member",
		clickRowButton("#members-list", "bob", "Remove"),
		waitNoText("#members-list", "bob"))
	if api.result("membership/bob/ops?scope=org-2") {
		t.Errorf("bob is still a member of ops in org-2")
	}
}

// TestConsoleStatusBesideAction: a message appears beside the action
// that caused it, and the next one replaces it (an old green banner
// stayed at the top beside a new red error).
func TestConsoleStatusBesideAction(t *testing.T) {
	exe := chromiumPath(t)
	url := newHostApp(t)
	api := newRestAPI(t, url)
	ops := []map[string]string{{"op": "add_role", "role": "long"}}
	for i := range 80 { // a long page
		ops = append(ops, map[string]string{"op": "add_permission", "role": "long", "permission": fmt.Sprintf("p%02d", i)})
	}
	api.batch(ops...)
	b := newBrowser(t, exe)
	signIn(t, b, url)
	b.run(t, "add a member far down the page",
		goTo("#/role/long"), waitText("h1", "Role long"), waitText("#grants-list", "p00"),
		fill("member-user", "dave"), submit("member-user"), waitText("#members-list", "dave"))
	near := func(text, field string) {
		t.Helper()
		d := value[float64](t, b, fmt.Sprintf(`(() => {
			const m = [...document.querySelectorAll('main [role=status], main [role=alert]')].find(e => e.textContent.includes(%q));
			if (!m) return -1;
			return Math.abs(m.getBoundingClientRect().top - document.getElementById(%q).getBoundingClientRect().bottom);
		})()`, text, field))
		if d < 0 || d > 200 {
			t.Errorf("message %q is %v px from #%s, want beside it (within 200 px)", text, d, field)
		}
	}
	near("dave is now a global member of long", "member-user")
	b.run(t, "a refused grant",
		fill("grant-name", " bad"), submit("grant-name"),
		chromedp.Poll[chromedp.Void](`[...document.querySelectorAll('main [role=alert]')].some(e => e.textContent.includes('leading or trailing'))`,
			chromedp.WithPollingTimeout(10*time.Second)))
	near("leading or trailing", "grant-name")
	if n := value[int](t, b, `[...document.querySelectorAll('main [role=status], main [role=alert]')].filter(e => e.textContent.trim() !== '').length`); n != 1 {
		t.Errorf("%d messages on the page after the refusal, want only the new one", n)
	}
}

// TestConsoleMissingRole: a role that does not exist says so once, and
// its forms cannot be used.
func TestConsoleMissingRole(t *testing.T) {
	exe := chromiumPath(t)
	url, rc := newHostAppCounting(t, "/auth", func(*gin.Engine) {})
	b := newBrowser(t, exe)
	signIn(t, b, url)
	b.run(t, "roles", waitText("#roles-list", "No roles yet"))
	rc.take()
	b.run(t, "open a missing role",
		goTo("#/role/nope"), waitText("h1", "Role nope"), waitText("#role-error", "ot found"),
		chromedp.Sleep(300*time.Millisecond))
	if n := value[int](t, b, `(document.querySelector('main').textContent.match(/not found/gi) || []).length`); n != 1 {
		t.Errorf(`"Not Found" shown %d times, want once`, n)
	}
	if n := value[int](t, b, `[...document.querySelectorAll('main form input, main form button')].filter(e => !e.matches(':disabled')).length`); n != 0 {
		t.Errorf("%d controls of the missing role's forms are enabled", n)
	}
	// The sign-in's whoami may reach the server after the roles page has
	// drawn (it is asked once, at sign-in, without waiting): not the
	// missing role's.
	got := slices.DeleteFunc(rc.take(), func(p string) bool { return p == "GET /auth/api/whoami" })
	if len(got) != 1 {
		t.Errorf("a missing role cost %d requests, want 1: %q", len(got), got)
	}
}

// TestConsoleSuggestions: the names already seen are offered as
// suggestions (roles, permissions, users), and a name nobody holds yet
// is pointed out before it is granted.
func TestConsoleSuggestions(t *testing.T) {
	exe := chromiumPath(t)
	url := newHostApp(t)
	api := newRestAPI(t, url)
	api.batch(
		map[string]string{"op": "add_role", "role": "editor"},
		map[string]string{"op": "add_role", "role": "reader"},
		map[string]string{"op": "add_permission", "role": "reader", "permission": "notes.read"},
		map[string]string{"op": "add_membership", "role": "reader", "user": "erin"},
	)
	b := newBrowser(t, exe)
	signIn(t, b, url)
	b.run(t, "see reader's names, then open editor",
		waitText("#roles-list", "reader"),
		goTo("#/role/reader"), waitText("#grants-list", "notes.read"), waitText("#members-list", "erin"),
		goTo("#/role/editor"), waitText("h1", "Role editor"))
	options := func(id string) []string {
		return value[[]string](t, b, fmt.Sprintf(`(() => { const e = document.getElementById(%q);
			return e && e.list ? [...e.list.options].map(o => o.value) : []; })()`, id))
	}
	has := func(list []string, v string) bool {
		for _, x := range list {
			if x == v {
				return true
			}
		}
		return false
	}
	if o := options("grant-name"); !has(o, "notes.read") {
		t.Errorf("permission suggestions %q lack notes.read", o)
	}
	if o := options("parent-name"); !has(o, "reader") {
		t.Errorf("role suggestions %q lack reader", o)
	}
	if o := options("member-user"); !has(o, "erin") {
		t.Errorf("user suggestions %q lack erin", o)
	}
	b.run(t, "a typo is pointed out",
		fill("grant-name", "notes.raed"), waitText("#grant-name-new", "notes.raed"))
	b.run(t, "a known name is not",
		fill("grant-name", "notes.read"), chromedp.WaitNotPresent(chromedp.CSS("#grant-name-new")))
}

// TestConsoleRolePageRequests: a role page answers in at most 4
// requests however many permissions the role has (one with 120 took 56:
// one explain request for each effective permission of the page).
func TestConsoleRolePageRequests(t *testing.T) {
	exe := chromiumPath(t)
	url, rc := newHostAppCounting(t, "/auth", func(*gin.Engine) {})
	api := newRestAPI(t, url)
	ops := []map[string]string{
		{"op": "add_role", "role": "big"}, {"op": "add_role", "role": "base"}, {"op": "add_role", "role": "sub"},
		{"op": "add_inheritance", "role": "big", "parent": "base"},
		{"op": "add_inheritance", "role": "sub", "parent": "big"},
	}
	for i := range 120 {
		ops = append(ops, map[string]string{"op": "add_permission", "role": "big", "permission": fmt.Sprintf("perm-%03d", i)})
	}
	for i := range 5 {
		ops = append(ops, map[string]string{"op": "add_permission", "role": "base", "permission": fmt.Sprintf("base-%d", i)})
		ops = append(ops, map[string]string{"op": "add_membership", "role": "big", "user": fmt.Sprintf("user%03d", i)})
	}
	api.batch(ops...)
	b := newBrowser(t, exe)
	signIn(t, b, url)
	b.run(t, "roles", waitText("#roles-list", "big"))
	rc.take()
	b.run(t, "open big",
		goTo("#/role/big"), waitText("h1", "Role big"),
		waitText("#grants-list", "perm-000"), waitText("#parents-list", "base"), waitText("#members-list", "user000"),
		chromedp.Sleep(500*time.Millisecond))
	got := rc.take()
	if len(got) > 4 {
		t.Errorf("the role page took %d requests, want at most 4: %q", len(got), got)
	}
	t.Logf("role page requests: %d", len(got))
}

// TestConsoleSearchDescribeUsers: search by the start of a name on the
// roles, a role's members and the users page; change a description;
// "Page N of M" where the total is known.
func TestConsoleSearchDescribeUsers(t *testing.T) {
	exe := chromiumPath(t)
	url, rc := newHostAppCounting(t, "/auth", func(*gin.Engine) {})
	api := newRestAPI(t, url)
	ops := []map[string]string{
		{"op": "add_role", "role": "alpha", "description": "First"}, {"op": "add_role", "role": "alpine"}, {"op": "add_role", "role": "beta"},
		{"op": "add_membership", "role": "alpha", "user": "u1"}, {"op": "add_membership", "role": "alpha", "user": "u10"},
		{"op": "add_membership", "role": "alpha", "user": "u2"},
	}
	for i := range 60 {
		ops = append(ops, map[string]string{"op": "add_membership", "role": "beta", "user": fmt.Sprintf("m%02d", i)})
	}
	api.batch(ops...)
	b := newBrowser(t, exe)
	signIn(t, b, url)
	b.run(t, "find roles",
		waitText("#roles-list", "beta"), fill("find-role", "alp"),
		waitNoText("#roles-list", "beta"), waitText("#roles-list", "alpine"), waitText("#roles-list", "alpha"))
	b.run(t, "no role found",
		fill("find-role", "zz"), waitText("#roles-list", "No role starts with “zz”"))
	b.run(t, "edit a description",
		goTo("#/role/alpha"), waitText("#role-desc", "First"), waitText("#members-list", "u2"),
		chromedp.Click(chromedp.CSS("#edit-desc")), fill("role-desc-edit", "Reads and writes alpha"), submit("role-desc-edit"),
		waitText("#role-desc", "Reads and writes alpha"), waitText("#describe-status", "Description of alpha saved"))
	var role struct {
		Description string `json:"description"`
	}
	api.do(http.MethodGet, "role/alpha", nil, &role)
	if role.Description != "Reads and writes alpha" {
		t.Errorf("stored description %q", role.Description)
	}
	b.run(t, "find members",
		fill("find-member", "u1"), waitNoText("#members-list", "u2"), waitText("#members-list", "u10"))
	b.run(t, "page N of M",
		goTo("#/role/beta"), waitText("#members-list", "m00"), waitText("#members-list .pager", "Page 1 of 2"))
	b.run(t, "users page",
		goTo("#/user"), waitText("h1", "Users"), waitText("#users-list", "m49"), waitNoText("#users-list", "m50"),
		fill("find-user", "u"), waitText("#users-list", "u10"), waitNoText("#users-list", "m00"),
		chromedp.Click(chromedp.CSS(`#users-list a[href="#/user/u2"]`)), waitText("h1", "User u2"), waitText("#user-roles", "alpha"))
	rc.take()
	b.run(t, "the role page still answers in 4 requests",
		goTo("#/role/alpha"), waitText("#members-list", "u2"), chromedp.Sleep(400*time.Millisecond))
	if got := rc.take(); len(got) > 4 {
		t.Errorf("role page: %d requests: %q", len(got), got)
	}
}

// TestConsoleListTotals: the roles and users pages say how many entries
// their list holds and which page of how many is shown (they used to say
// "Page 1" with no end in sight), also while a search narrows the list;
// the total comes with each page (X-Total-Count), at no extra request.
func TestConsoleListTotals(t *testing.T) {
	exe := chromiumPath(t)
	url, rc := newHostAppCounting(t, "/auth", func(*gin.Engine) {})
	api := newRestAPI(t, url)
	ops := []map[string]string{{"op": "add_role", "role": "alpha"}, {"op": "add_role", "role": "beta"}}
	for i := range 55 {
		ops = append(ops, map[string]string{"op": "add_role", "role": fmt.Sprintf("bulk-%02d", i)})
	}
	for i := range 52 {
		ops = append(ops, map[string]string{"op": "add_membership", "role": "alpha", "user": fmt.Sprintf("user-%02d", i)})
	}
	ops = append(ops, map[string]string{"op": "add_membership", "role": "beta", "user": "user-00"},
		map[string]string{"op": "add_membership", "role": "beta", "user": "zed", "scope": "org-1"})
	api.batch(ops...)
	b := newBrowser(t, exe)
	signIn(t, b, url)
	rc.take()
	b.run(t, "the roles page counts its roles",
		goTo("#/roles"), waitText("#roles-list-count", "57 roles"), waitText("#roles-list .pager", "Page 1 of 2"))
	b.run(t, "next page",
		chromedp.Click(chromedp.CSS(`#roles-list .pager button:last-of-type`)),
		waitText("#roles-list .pager", "Page 2 of 2"), waitText("#roles-list", "bulk-54"), waitText("#roles-list-count", "57 roles"))
	b.run(t, "a search counts what it finds",
		fill("find-role", "bulk-1"), waitText("#roles-list-count", "10 roles starting with “bulk-1”"),
		chromedp.WaitNotPresent(chromedp.CSS("#roles-list .pager")))
	b.run(t, "one role",
		fill("find-role", "alpha"), waitText("#roles-list-count", "1 role starting with “alpha”"))
	b.run(t, "nothing found says so once",
		fill("find-role", "zz"), waitText("#roles-list", "No role starts with “zz”"),
		chromedp.WaitNotPresent(chromedp.CSS("#roles-list-count")))
	for _, p := range rc.take() {
		if !strings.HasPrefix(p, "GET /auth/api/roles?") && p != "GET /auth/api/whoami" { // whoami: once, at sign-in
			t.Errorf("the roles page sent %s, want only its list requests", p)
		}
	}
	b.run(t, "the users page counts its users, scoped members too",
		goTo("#/user"), waitText("h1", "Users"), waitText("#users-list-count", "53 users"),
		waitText("#users-list .pager", "Page 1 of 2"),
		chromedp.Click(chromedp.CSS(`#users-list .pager button:last-of-type`)),
		waitText("#users-list .pager", "Page 2 of 2"), waitText("#users-list", "zed"))
	b.run(t, "a search on users",
		fill("find-user", "user-5"), waitText("#users-list-count", "2 users starting with “user-5”"))
}
