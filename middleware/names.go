package middleware

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxNameLength is the longest role, permission or user name, in Unicode
// characters.
const MaxNameLength = 128

// ValidName reports whether s is a valid role, permission or user name: 1
// to 128 characters of valid UTF-8, no control characters, no format
// characters (Unicode category Cf: zero-width space, right-to-left
// override, soft hyphen, ...: invisible, they would let two names that
// look the same be different roles), no '/', no leading or trailing white
// space. Names are case-sensitive; a name is checked after NormalizeName,
// which every entry point applies.
//
// The rule lives here because this package imports no other rolegate
// package and guards check their names at construction (a guard naming an
// impossible permission would refuse everyone, silently); authz.ValidName
// is this function.
func ValidName(s string) bool {
	if s == "" || len(s) > utf8.UTFMax*MaxNameLength || !utf8.ValidString(s) {
		return false
	}
	if strings.TrimSpace(s) != s {
		return false
	}
	n := 0
	for _, r := range s {
		if r == '/' || unicode.IsControl(r) || (r >= 0x80 && unicode.Is(unicode.Cf, r)) {
			return false
		}
		n++
	}
	return n <= MaxNameLength
}

// NormalizeName returns s in Unicode normalisation form C, so that the
// composed "é" (U+00E9) and "e" followed by a combining acute accent
// (U+0065 U+0301) are one name. Every entry point applies it before
// ValidName: the library API, REST path parameters, guards at
// construction and the user a guard's resolver finds. A name already in
// NFC (every ASCII name, and what the entry points store) is returned as
// it is, without allocating, so the guard's warm path stays
// allocation-free. Invalid UTF-8 is returned unchanged for ValidName to
// refuse.
func NormalizeName(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			// QuickSpanString, unlike IsNormalString, does not allocate:
			// a name whose every character passes the quick check is NFC.
			if !utf8.ValidString(s) || norm.NFC.QuickSpanString(s) == len(s) {
				return s
			}
			return norm.NFC.String(s)
		}
	}
	return s
}
