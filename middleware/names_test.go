package middleware

import (
	"context"
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"
)

const (
	composed   = "r\u00f4le"  // "rôle" with U+00F4
	decomposed = "ro\u0302le" // "rôle" as o + combining circumflex
)

// TestValidNameRefusesFormatCharacters: invisible format characters made
// names that look alike but are different roles.
func TestValidNameRefusesFormatCharacters(t *testing.T) {
	for _, s := range []string{
		"ad\u200bmin",  // zero-width space
		"\u202eadmin",  // right-to-left override
		"admin\u200d",  // zero-width joiner
		"ad\u00admin",  // soft hyphen
		"\ufeffadmin",  // byte order mark
		"admin\u2066x", // left-to-right isolate
	} {
		if ValidName(s) {
			t.Errorf("ValidName(%q) = true, want false", s)
		}
	}
	for _, s := range []string{composed, decomposed, "日本語", "editor", "naïve-ü"} {
		if !ValidName(s) {
			t.Errorf("ValidName(%q) = false, want true", s)
		}
	}
}

func TestNormalizeName(t *testing.T) {
	if got := NormalizeName(decomposed); got != composed {
		t.Errorf("NormalizeName(%q) = %q, want %q", decomposed, got, composed)
	}
	for _, s := range []string{composed, "editor", "日本語", "bad\xff"} {
		if got := NormalizeName(s); got != s {
			t.Errorf("NormalizeName(%q) = %q, want it unchanged", s, got)
		}
	}
	// The guard's warm path normalises every request's user: free for
	// names already in NFC.
	for _, s := range []string{"sara", composed} {
		if n := testing.AllocsPerRun(100, func() { _ = NormalizeName(s) }); n != 0 {
			t.Errorf("NormalizeName(%q) allocates %v times", s, n)
		}
	}
}

// TestGuardNormalisesNames: a guard built with a decomposed permission,
// and a resolver that finds a decomposed user, match the NFC names of the
// store.
func TestGuardNormalisesNames(t *testing.T) {
	ch := mapChecker{composed + "-user": {composed: {}}}
	g := mustNewGuard(GuardConfig{Checker: ch, Resolver: HeaderResolver("X-User-Id"), AnyPermissions: []string{decomposed}})
	r := newTestRouter()
	r.GET("/x", g, func(c *gin.Context) {
		u, _ := UserFrom(c)
		c.String(http.StatusOK, u)
	})
	for _, user := range []string{composed + "-user", decomposed + "-user"} {
		w := performRequest(r, http.MethodGet, "/x", nil, "X-User-Id", user)
		if w.Code != http.StatusOK || w.Body.String() != composed+"-user" {
			t.Errorf("user %q: %d %q, want 200 and the NFC name", user, w.Code, w.Body.String())
		}
	}
	if _, err := NewGuard(GuardConfig{Checker: ch, Resolver: HeaderResolver("X-User-Id"), AnyPermissions: []string{"ed\u200bit"}}); err == nil {
		t.Errorf("a guard on a name with a zero-width space was built")
	}
	if ok, _ := ch.UserHasPermission(context.Background(), decomposed+"-user", composed); ok {
		t.Fatal("the checker itself must not normalise, or the test proves nothing")
	}
}
