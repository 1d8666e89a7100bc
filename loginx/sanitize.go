package loginx

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxAvatarURL bounds the avatar URL kept; a longer one is dropped.
const maxAvatarURL = 2048

// webURL returns s when it is an absolute http or https URL with a host,
// else "": a picture claim such as "javascript:..." or "data:..." must
// not reach a client that puts me.avatarUrl into a page.
func webURL(s string) string {
	if s == "" || len(s) > maxAvatarURL {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return s
	}
	return ""
}

// maxLogField is the most bytes of a client-supplied value that a log
// line carries.
const maxLogField = 128

// logField shortens a client-supplied value for a log line, so that a
// request cannot write kilobytes into the log: at most maxLogField bytes
// of valid UTF-8, with the original length when cut.
func logField(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= maxLogField {
		return s
	}
	cut := maxLogField
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "...(" + strconv.Itoa(len(s)) + " bytes)"
}
