package middleware

import (
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// ErrCrossSite refuses a request that another site's page sent with
// credentials the browser adds by itself (a cookie, a header an
// authenticating proxy derives from its cookie).
var ErrCrossSite = errors.New("cross-site request refused")

// SameOrigin is the cross-origin check of Go 1.25's
// http.CrossOriginProtection (not in the Go 1.24 this module supports),
// for requests whose credentials a browser sends by itself. A safe method
// (GET, HEAD, OPTIONS) passes. Otherwise Sec-Fetch-Site, sent by every
// current browser, must say same-origin (or none: typed by the user);
// "same-site" is refused too, since a page on a sibling origin (another
// port, another subdomain) gets SameSite cookies along. Without it an
// Origin header must name the request's own host; a request with neither
// comes from no browser and passes.
func SameOrigin(r *http.Request) error {
	if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
		return nil
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "":
	case "same-origin", "none":
		return nil
	default:
		return ErrCrossSite
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	if u, err := url.Parse(origin); err != nil || u.Host == "" || u.Host != r.Host {
		return ErrCrossSite
	}
	return nil
}

// HTTPS reports whether the client reached the host over TLS: the
// connection is TLS, or the socket peer is a trusted proxy whose
// X-Forwarded-Proto (its last value: the nearest proxy's) says https. A
// cookie is then marked Secure.
func (tp *TrustedProxies) HTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	host := r.RemoteAddr
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || !tp.trusts(peer) {
		return false
	}
	v := r.Header.Values("X-Forwarded-Proto")
	if len(v) == 0 {
		return false
	}
	parts := strings.Split(v[len(v)-1], ",")
	return strings.EqualFold(strings.TrimSpace(parts[len(parts)-1]), "https")
}
