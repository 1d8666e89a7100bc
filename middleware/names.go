package middleware

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameLength is the longest role, permission or user name, in Unicode
// characters.
const MaxNameLength = 128

// ValidName reports whether s is a valid role, permission or user name: 1
// to 128 characters of valid UTF-8, no control characters, no '/', no
// leading or trailing white space. Names are case-sensitive.
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
		if r == '/' || unicode.IsControl(r) {
			return false
		}
		n++
	}
	return n <= MaxNameLength
}
