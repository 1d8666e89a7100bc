package browsertest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/gin-gonic/gin"
)

// TestConsoleDotSegmentNames: "." and ".." are valid names, but a browser
// resolves them as path segments before the request leaves ("role/x/
// inherits/.." becomes "role/x/"), and gin's default trailing-slash
// redirect (307, method kept, Authorization kept on the same origin) then
// turned "stop inheriting from .." into DELETE /api/role/x. The console
// must refuse to send such a path, and say why.
func TestConsoleDotSegmentNames(t *testing.T) {
	exe := chromiumPath(t)
	url := newHostAppWith(t, "/auth", func(*gin.Engine) {}) // gin's defaults: RedirectTrailingSlash on
	api := strings.TrimSuffix(url, "console/") + "api/"
	do := func(method, path string) int {
		t.Helper()
		req, _ := http.NewRequest(method, api+path, nil)
		req.Header.Set("Authorization", "Bearer "+adminKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, p := range []string{"role/victim", "role/..", "role/victim/inherits/.."} {
		if code := do(http.MethodPost, p); code != http.StatusCreated {
			t.Fatalf("POST %s: %d", p, code)
		}
	}
	b := newBrowser(t, exe)
	b.run(t, "sign in", chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#client-key")),
		fill("client-key", adminKey), submit("client-key"), waitText("#roles-list", "victim"))
	b.run(t, "stop inheriting from ..",
		goTo("#/role/victim"), waitText("h1", "Role victim"), waitText("#parents-list", ".."),
		chromedp.Click(chromedp.CSS(`button[aria-label="Remove parent .. (stop inheriting from it)"]`)),
		waitText("#parents-status", "cannot be sent"))
	if code := do(http.MethodGet, "role/victim"); code != http.StatusOK {
		t.Errorf("GET role/victim after removing the link to ..: %d, want 200 (the role must survive)", code)
	}
}

// TestConsoleMountNamedConsole: the API is found beside the console's own
// "console/", the last one of the path, when the mount's name holds
// "console/" too (it used to cut at the first, and call /api/ here).
func TestConsoleMountNamedConsole(t *testing.T) {
	exe := chromiumPath(t)
	url := newHostAppWith(t, "/console", func(*gin.Engine) {})
	b := newBrowser(t, exe)
	b.run(t, "sign in under /console/console/", chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#client-key")),
		fill("client-key", adminKey), submit("client-key"), waitText("#roles-list", "No roles yet"))
}
