package authz

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzValidName checks the naming rule against its definition, written out
// the slow, obvious way.
func FuzzValidName(f *testing.F) {
	for _, s := range []string{"", "a", "editor", " a", "a ", "a/b", "a\x00", "é", strings.Repeat("x", 128),
		strings.Repeat("x", 129), strings.Repeat("é", 128), "\xff", "a\u2028b", "\u00a0a", "%2F", "<script>", "'; DROP TABLE x; --"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := utf8.ValidString(s) && s != "" && utf8.RuneCountInString(s) <= MaxNameLength &&
			strings.TrimFunc(s, unicode.IsSpace) == s && !strings.ContainsRune(s, '/') &&
			strings.IndexFunc(s, unicode.IsControl) < 0
		if got := ValidName(s); got != want {
			t.Fatalf("ValidName(%q) = %v, want %v", s, got, want)
		}
	})
}
