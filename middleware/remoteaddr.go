package middleware

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// TrustedProxies decides which address a request came from. Forwarded
// headers (X-Forwarded-For, X-Real-IP) are written by whoever sends the
// request, so they are believed only when the socket peer is one of the
// listed proxies; with none listed (the zero value) the socket address is
// the answer, whatever the headers say.
type TrustedProxies struct {
	prefixes []netip.Prefix
}

// ParseTrustedProxies reads IP addresses and CIDR ranges ("10.0.0.1",
// "10.0.0.0/8", "::1"). It reports the first entry that is neither.
func ParseTrustedProxies(entries []string) (*TrustedProxies, error) {
	tp := &TrustedProxies{}
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if p, err := netip.ParsePrefix(e); err == nil {
			tp.prefixes = append(tp.prefixes, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(e)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is not an IP address or CIDR range", e)
		}
		a = a.Unmap()
		tp.prefixes = append(tp.prefixes, netip.PrefixFrom(a, a.BitLen()))
	}
	return tp, nil
}

// Everyone reports a range that covers a whole address family (0.0.0.0/0,
// ::/0): with it, any client can name its own address in X-Forwarded-For,
// which is almost always a mistake worth a warning at startup.
func (tp *TrustedProxies) Everyone() bool {
	if tp == nil {
		return false
	}
	for _, p := range tp.prefixes {
		if p.Bits() == 0 {
			return true
		}
	}
	return false
}

func (tp *TrustedProxies) trusts(a netip.Addr) bool {
	if tp == nil {
		return false
	}
	a = a.Unmap()
	for _, p := range tp.prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// RemoteAddr is the client address of r: the socket peer, unless the peer
// is a trusted proxy, in which case the nearest untrusted hop of
// X-Forwarded-For (read right to left: each proxy appends the address it
// saw), else X-Real-IP. A header value that does not parse as an address
// ends the walk at the last hop that could be vouched for.
func (tp *TrustedProxies) RemoteAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || !tp.trusts(peer) {
		return host
	}
	hop := peer
	if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
		parts := strings.Split(strings.Join(xff, ","), ",")
		for i := len(parts) - 1; i >= 0; i-- {
			a, err := netip.ParseAddr(strings.TrimSpace(parts[i]))
			if err != nil {
				break
			}
			hop = a.Unmap()
			if !tp.trusts(hop) {
				break
			}
		}
		return hop.String()
	}
	if a, err := netip.ParseAddr(strings.TrimSpace(r.Header.Get("X-Real-IP"))); err == nil {
		return a.Unmap().String()
	}
	return host
}
