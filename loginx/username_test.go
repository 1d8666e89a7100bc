package loginx

import (
	"strings"
	"testing"

	"github.com/rolegate/rolegate/middleware"
)

// FuzzUsername: whatever the claims, the username (and every collision
// variant) is a valid rolegate name.
func FuzzUsername(f *testing.F) {
	for _, s := range []string{"alice", " a/b ", "\x00\x01", strings.Repeat("é", 200), "\xff\xfe", "  ", "a@b.c"} {
		f.Add(s, s, s)
	}
	f.Fuzz(func(t *testing.T, pref, email, sub string) {
		base := usernameBase(&identity{PreferredUsername: pref, Email: email, Subject: sub})
		for _, i := range []int{0, 1, 9, 99999} {
			if u := usernameCandidate(base, i); !middleware.ValidName(u) {
				t.Fatalf("username %q (attempt %d) from %q, %q, %q is not a valid name", u, i, pref, email, sub)
			}
		}
	})
}
