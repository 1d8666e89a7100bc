package authz

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameLength is the longest name, in Unicode characters.
const MaxNameLength = 128

// ValidName reports whether s is a valid role, permission or user name: 1
// to 128 characters of valid UTF-8, no control characters, no '/', no
// leading or trailing white space. Names are case-sensitive.
func ValidName(s string) bool {
	if s == "" || len(s) > 4*MaxNameLength || !utf8.ValidString(s) {
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

// checkNames returns ErrInvalidName, naming the field, for the first bad
// name of kind/value pairs.
func checkNames(kv ...string) error {
	for i := 0; i+1 < len(kv); i += 2 {
		if !ValidName(kv[i+1]) {
			return fmt.Errorf("%w: %s must be 1 to %d characters of valid UTF-8, with no control characters, no '/', and no leading or trailing space", ErrInvalidName, kv[i], MaxNameLength)
		}
	}
	return nil
}
