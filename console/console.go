package console

//go:generate sh -c "cd web && npm ci --no-audit --no-fund && npm run build"

import (
	"bytes"
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed all:dist
var dist embed.FS

// ContentSecurityPolicy is the policy of every console response: the
// console's own scripts, styles and API only.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the console's files. It expects the request path with
// everything up to and including ".../console" stripped, as authz.Mount
// arranges ("/" or "" is the page itself, "/assets/..." its assets).
// Unknown paths get 404; only GET and HEAD are answered.
func Handler() http.Handler {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return &handler{files: sub}
}

type handler struct{ files fs.FS }

// started is the modification time of every file: embedded files have
// none, and a fixed one lets conditional requests work.
var started = time.Now().UTC().Truncate(time.Second)

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", ContentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Cross-Origin-Opener-Policy", "same-origin")
	hd.Set("Cross-Origin-Resource-Policy", "same-origin")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(r.URL.Path, "/")
	if name == "" {
		name = "index.html"
	}
	// fs.ValidPath refuses "..", ".", empty segments and backslashes are
	// plain characters in an embed.FS: nothing outside dist is reachable.
	if !fs.ValidPath(name) || strings.Contains(name, "\\") {
		notFound(w)
		return
	}
	data, err := fs.ReadFile(h.files, name)
	if err != nil {
		notFound(w)
		return
	}
	if strings.HasPrefix(name, "assets/") {
		// Content-hashed names: a new build has new names.
		hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		hd.Set("Cache-Control", "no-cache")
	}
	http.ServeContent(w, r, path.Base(name), started, bytes.NewReader(data))
}

func notFound(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, "404 page not found", http.StatusNotFound)
}
