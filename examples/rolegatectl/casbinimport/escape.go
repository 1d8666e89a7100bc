package casbinimport

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape makes a name safe to print in a message: control and format
// characters (which could move the cursor, clear the screen or reorder
// the text around them) and invalid UTF-8 bytes are written as Go
// escapes (\n, \x1b, \u202e); everything else is printed as is.
func Escape(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r == '\\' || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			q := fmt.Sprintf("%+q", string(r)) // "\n", "\x1b", "\u202e"
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
