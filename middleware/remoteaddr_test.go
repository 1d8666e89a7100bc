package middleware

import (
	"net/http/httptest"
	"testing"
)

// Forwarded headers are believed only from listed proxies: a client that
// connects directly cannot choose the address recorded for it.
func TestRemoteAddrForwardedSpoof(t *testing.T) {
	none, _ := ParseTrustedProxies(nil)
	proxy, err := ParseTrustedProxies([]string{"10.0.0.0/8", "192.0.2.7"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		tp      *TrustedProxies
		peer    string
		headers []string
		want    string
	}{
		{"no proxies: XFF ignored", none, "203.0.113.9:5555", []string{"X-Forwarded-For", "1.2.3.4"}, "203.0.113.9"},
		{"no proxies: X-Real-IP ignored", none, "203.0.113.9:5555", []string{"X-Real-IP", "1.2.3.4"}, "203.0.113.9"},
		{"nil set: XFF ignored", nil, "203.0.113.9:5555", []string{"X-Forwarded-For", "1.2.3.4"}, "203.0.113.9"},
		{"untrusted peer: XFF ignored", proxy, "203.0.113.9:5555", []string{"X-Forwarded-For", "1.2.3.4"}, "203.0.113.9"},
		{"trusted proxy: client from XFF", proxy, "10.1.2.3:80", []string{"X-Forwarded-For", "198.51.100.4"}, "198.51.100.4"},
		{"trusted chain: nearest untrusted hop", proxy, "10.1.2.3:80", []string{"X-Forwarded-For", "1.2.3.4, 198.51.100.4, 192.0.2.7"}, "198.51.100.4"},
		{"spoofed left entries are not believed", proxy, "10.1.2.3:80", []string{"X-Forwarded-For", "127.0.0.1, 198.51.100.4"}, "198.51.100.4"},
		{"trusted proxy: X-Real-IP", proxy, "192.0.2.7:80", []string{"X-Real-IP", "198.51.100.5"}, "198.51.100.5"},
		{"garbage stops the walk", proxy, "10.1.2.3:80", []string{"X-Forwarded-For", "198.51.100.4, <script>"}, "10.1.2.3"},
		{"trusted proxy, no header", proxy, "10.1.2.3:80", nil, "10.1.2.3"},
		{"ipv6 peer", none, "[2001:db8::1]:80", []string{"X-Forwarded-For", "1.2.3.4"}, "2001:db8::1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			for i := 0; i+1 < len(tt.headers); i += 2 {
				r.Header.Set(tt.headers[i], tt.headers[i+1])
			}
			if got := tt.tp.RemoteAddr(r); got != tt.want {
				t.Errorf("RemoteAddr = %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := ParseTrustedProxies([]string{"10.0.0.0/8", "proxy.local"}); err == nil {
		t.Error("a host name was accepted as a trusted proxy")
	}
}

func TestTrustedProxiesEveryone(t *testing.T) {
	for _, tc := range []struct {
		entries []string
		want    bool
	}{
		{nil, false},
		{[]string{"10.0.0.0/8", "127.0.0.1"}, false},
		{[]string{"10.0.0.0/8", "0.0.0.0/0"}, true},
		{[]string{"::/0"}, true},
	} {
		tp, err := ParseTrustedProxies(tc.entries)
		if err != nil {
			t.Fatal(err)
		}
		if got := tp.Everyone(); got != tc.want {
			t.Errorf("ParseTrustedProxies(%q).Everyone() = %v, want %v", tc.entries, got, tc.want)
		}
	}
}
