package middleware

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxNameLen mirrors the naming rule in DESIGN.md (1 to 128 characters).
const maxNameLen = 128

// validName reports whether s could ever be stored as a role or permission
// name under DESIGN.md's rule: 1 to 128 characters of valid UTF-8, no
// control characters, no '/', no leading or trailing white space. Guards
// check their names at construction because a guard naming an impossible
// permission would refuse everyone, silently. The rule is repeated here,
// not imported, because this package imports no other rolegate package.
func validName(s string) bool {
	if s == "" || !utf8.ValidString(s) || utf8.RuneCountInString(s) > maxNameLen {
		return false
	}
	if strings.TrimSpace(s) != s {
		return false
	}
	for _, r := range s {
		if r == '/' || unicode.IsControl(r) {
			return false
		}
	}
	return true
}
