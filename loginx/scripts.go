package loginx

import (
	"slices"
	"strings"
	"unicode"
)

// A name taken from a claim is refused when one of its parts mixes
// scripts: "\u0430lice" (a Cyrillic a, then Latin) reads as "alice" to the
// admin who grants to it. This is the "highly restrictive" level of
// Unicode's security mechanisms (UTS #39, 5.2): within a part, the letters
// are of one script, or of Latin with the Han-based sets of Japanese,
// Chinese or Korean; digits, punctuation and combining marks (the Common and
// Inherited scripts) go with any. A part is what '@' and '.' separate, so
// an address with a Latin local part at a Cyrillic domain is accepted. A
// name wholly in one script is a name of its own even where it looks like
// one in another ("\u0430\u0440\u0435", all Cyrillic, is not "ape"): it
// cannot be the other's name, and so cannot take its grants.

// allowedMixes are the script sets beyond one script that UTS #39 allows at
// the highly restrictive level.
var allowedMixes = [][]string{
	{"Latin", "Han", "Hiragana", "Katakana"},
	{"Latin", "Han", "Bopomofo"},
	{"Latin", "Han", "Hangul"},
}

// mixesScripts reports whether a part of v mixes scripts beyond what
// allowedMixes allows.
func mixesScripts(v string) bool {
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '@' || r == '.' }) {
		var seen []string
		for _, r := range part {
			if sc := scriptOf(r); sc != "" && !slices.Contains(seen, sc) {
				seen = append(seen, sc)
			}
		}
		if len(seen) > 1 && !allowedMix(seen) {
			return true
		}
	}
	return false
}

// scriptOf names the script of r, "" for Common and Inherited (or a code
// point of no script).
func scriptOf(r rune) string {
	switch {
	case r < 0x80:
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return "Latin"
		}
		return ""
	case unicode.Is(unicode.Common, r), unicode.Is(unicode.Inherited, r):
		return ""
	}
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return ""
}

func allowedMix(scripts []string) bool {
	for _, set := range allowedMixes {
		all := true
		for _, sc := range scripts {
			all = all && slices.Contains(set, sc)
		}
		if all {
			return true
		}
	}
	return false
}
