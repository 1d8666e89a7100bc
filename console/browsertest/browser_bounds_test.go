package browsertest_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestConsoleShowsBounds: rows with time bounds show them in words on the
// role page's grants and members, the user's roles and the Members page
// ("until Fri 18:00", "from Mon 09:00", in the browser's time zone), and
// a row outside its window (a membership that starts later) says "not held
// now" and is marked as such.
func TestConsoleShowsBounds(t *testing.T) {
	exe := chromiumPath(t)
	consoleURL := newHostApp(t)
	api := strings.TrimSuffix(consoleURL, "console/") + "api/"
	now := time.Now()
	until := now.Add(3 * 24 * time.Hour).Truncate(time.Minute)
	from := now.Add(2 * 24 * time.Hour).Truncate(time.Minute)
	post := func(path string, q url.Values) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, api+path+"?"+q.Encode(), nil)
		req.Header.Set("Authorization", "Bearer "+adminKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("POST %s: %d", path, resp.StatusCode)
		}
	}
	rfc := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	post("role/editor", nil)
	post("permission/editor/edit", nil)
	post("permission/editor/deploy", url.Values{"expires_at": {rfc(until)}})
	post("membership/tom/editor", url.Values{"expires_at": {rfc(until)}})
	post("membership/ana/editor", url.Values{"starts_at": {rfc(from)}})
	post("membership/dave/editor", url.Values{"scope": {"org-1"}, "starts_at": {rfc(from)}, "expires_at": {rfc(until)}})
	word := func(t time.Time) string { return t.Local().Format("Mon 15:04") }

	b := newBrowser(t, exe)
	b.run(t, "sign in", chromedp.Navigate(consoleURL), chromedp.WaitVisible(chromedp.CSS("#client-key")),
		fill("client-key", adminKey), submit("client-key"), waitText("#roles-list", "editor"))
	b.run(t, "the role page: grants and members with their bounds",
		goTo("#/role/editor"), waitText("h1", "Role editor"),
		waitText("#grants-list", "until "+word(until)),
		waitText("#members-list", "until "+word(until)),
		waitText("#members-list", "from "+word(from)+" · not held now"),
		screenshot(artifacts(t), "10-bounds"))
	rows := value[string](t, b, `[...document.querySelectorAll('#members-list li')].map((li) => li.className + ':' + li.querySelector('a').textContent + ':' + ((li.querySelector('.bounds') || {}).textContent || '')).join('|')`)
	for _, want := range []string{"row outside:ana:from " + word(from) + " · not held now", "row:tom:until " + word(until)} {
		if !strings.Contains(rows, want) {
			t.Errorf("members rows %q lack %q", rows, want)
		}
	}
	if grants := value[string](t, b, `document.querySelector('#grants-list').textContent`); !strings.Contains(grants, "edit") || strings.Count(grants, "until") != 1 {
		t.Errorf("grants: %q; want edit without bounds and deploy until", grants)
	}
	b.run(t, "the user's roles, and the check says until when",
		goTo("#/user/tom"), waitText("h1", "User tom"), waitText("#user-roles", "until "+word(until)),
		fill("check-perm", "deploy"), submit("check-perm"),
		waitText("#check-result", "tom can deploy globally: yes, member of editor globally (until "+word(until)+"); granted to editor (until "+word(until)+")"))
	b.run(t, "a scoped membership from later, on the user's page and the Members page",
		goTo("#/user/dave"), waitText("h1", "User dave"),
		waitText("#user-scoped", "from "+word(from)+", until "+word(until)+" · not held now"),
		goTo("#/members"), waitText("h1", "Members"),
		waitText("#scoped-list", "from "+word(from)+", until "+word(until)+" · not held now"))
	b.check(t)
}
