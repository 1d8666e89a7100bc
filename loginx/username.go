package loginx

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxNameRunes is the longest valid rolegate name.
const maxNameRunes = 128

// usernameBase picks the base of a new user's username: the
// preferred_username claim, else the e-mail's local part, else the
// subject, each sanitised to a valid rolegate name; "user" if none is
// usable.
func usernameBase(id *identity) string {
	local := id.Email
	if at := strings.LastIndexByte(local, '@'); at >= 0 {
		local = local[:at]
	}
	for _, c := range []string{id.PreferredUsername, local, id.Subject} {
		if s := sanitizeName(c, maxNameRunes); s != "" {
			return s
		}
	}
	return "user"
}

// sanitizeName makes s a valid rolegate name of at most max runes: invalid
// UTF-8 and control characters dropped, '/' as '_', surrounding white
// space trimmed. It may return "".
func sanitizeName(s string, max int) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r):
			return -1
		case r == '/':
			return '_'
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > max {
		s = strings.TrimSpace(string([]rune(s)[:max]))
	}
	return s
}

// usernameCandidate returns the attempt-th username to try: the base,
// then base-2, base-3, ..., the base shortened so the result stays within
// 128 characters.
func usernameCandidate(base string, attempt int) string {
	if attempt == 0 {
		return base
	}
	suffix := "-" + strconv.Itoa(attempt+1)
	b := sanitizeName(base, maxNameRunes-len(suffix))
	return b + suffix
}
