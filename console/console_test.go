package console

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func serve(method, target string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	Handler().ServeHTTP(w, httptest.NewRequest(method, target, nil))
	return w
}

// checkHeaders asserts the security headers every response carries.
func checkHeaders(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	for name, want := range map[string]string{
		"Content-Security-Policy": ContentSecurityPolicy,
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
		"X-Frame-Options":         "DENY",
	} {
		if got := w.Header().Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

func TestIndex(t *testing.T) {
	for _, target := range []string{"/", ""} {
		w := serve(http.MethodGet, "http://x"+target)
		if w.Code != http.StatusOK {
			t.Fatalf("GET %q: %d", target, w.Code)
		}
		checkHeaders(t, w)
		body := w.Body.String()
		if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("Content-Type %q", ct)
		}
		if cc := w.Header().Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("index Cache-Control %q, want no-cache (it names the current assets)", cc)
		}
		// The CSP forbids inline script and style: the page has neither.
		for _, bad := range []string{"<script>", "<style", " style=", " on"} {
			if strings.Contains(body, bad) {
				t.Errorf("index.html holds %q, which the CSP would block", bad)
			}
		}
		if !strings.Contains(body, `<script type="module" src="assets/`) {
			t.Errorf("index.html does not load the bundle: %s", body)
		}
	}
}

func TestAssets(t *testing.T) {
	names := regexp.MustCompile(`(?:src|href)="(assets/[^"]+)"`).FindAllStringSubmatch(serve(http.MethodGet, "/").Body.String(), -1)
	if len(names) != 2 {
		t.Fatalf("index.html names %d assets, want the script and the style sheet", len(names))
	}
	for _, m := range names {
		name := m[1]
		w := serve(http.MethodGet, "/"+name)
		if w.Code != http.StatusOK || w.Body.Len() == 0 {
			t.Fatalf("GET /%s: %d", name, w.Code)
		}
		checkHeaders(t, w)
		if cc := w.Header().Get("Cache-Control"); !strings.Contains(cc, "immutable") {
			t.Errorf("%s Cache-Control %q, want immutable (hashed names)", name, cc)
		}
		if h := serve(http.MethodHead, "/"+name); h.Code != http.StatusOK || h.Body.Len() != 0 {
			t.Errorf("HEAD /%s: %d with %d bytes", name, h.Code, h.Body.Len())
		}
	}
}

func TestRefused(t *testing.T) {
	for _, target := range []string{
		"/nope.js", "/assets/", "/assets/nope.js",
		"/../console.go", "/%2e%2e/console.go", "/assets/../../doc.go", "/..%2fconsole.go",
		"/./index.html", "//index.html", "/assets\\..\\index.html", "/dist/index.html", "/web/package.json",
	} {
		w := serve(http.MethodGet, target)
		if w.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", target, w.Code)
		}
		checkHeaders(t, w)
		if strings.Contains(w.Body.String(), "package console") {
			t.Errorf("GET %s served source", target)
		}
	}
	w := serve(http.MethodPost, "/")
	if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /: %d, Allow %q", w.Code, w.Header().Get("Allow"))
	}
	checkHeaders(t, w)
}
