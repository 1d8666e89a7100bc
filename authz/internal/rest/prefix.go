package rest

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
)

// ?prefix=P on the lists of roles, of a role's members and of a user's
// roles: only the names that start with P (byte for byte, after the same
// normalisation as a name; "" is every name), still sorted and paged by
// ?limit&after. It is answered here, over the library's sorted windows:
// the store is asked from just below P (prefixStart) and the list stops at
// the first name past P's range, so a search reads the names it returns
// and one window more, not the whole list. Names the store keeps
// encrypted (users) are compared in plain text, as they are sorted.

// errPrefixDone stops a list once past the prefix's range or the limit.
var errPrefixDone = errors.New("prefix: done")

// prefixParam reads ?prefix: at most middleware.MaxNameLength characters of
// valid UTF-8 with no control characters and no '/'; white space is kept
// (a name's prefix may end with a space).
func prefixParam(call *request) (string, bool, error) {
	v, ok, err := queryValue(call.c.Request.URL.Query(), "prefix")
	if err != nil || !ok {
		return "", false, err
	}
	v = middleware.NormalizeName(v)
	bad := !utf8.ValidString(v) || utf8.RuneCountInString(v) > middleware.MaxNameLength || strings.ContainsRune(v, '/') ||
		strings.IndexFunc(v, unicode.IsControl) >= 0
	if bad {
		return "", false, refuse(fmt.Errorf("%w: prefix must be at most %d characters of valid UTF-8, with no control characters and no '/'",
			errBadRequest, middleware.MaxNameLength))
	}
	return v, true, nil
}

// prefixStart is a cursor just below every name that starts with p: p
// with its last character lowered by one and followed by the highest
// code point. Only names that start with that very string lie between it
// and p, and those are skipped.
func prefixStart(p string) string {
	r, size := utf8.DecodeLastRuneInString(p)
	if size == 0 {
		return ""
	}
	r--
	if r >= 0xD800 && r <= 0xDFFF { // no surrogates in UTF-8
		r = 0xD7FF
	}
	return p[:len(p)-size] + string(r) + string(utf8.MaxRune)
}

// withPrefix runs each (a library list) for the request's window, keeping
// the entries whose name (key) starts with ?prefix.
func withPrefix[E any](call *request, key func(E) string,
	each func(rbac.ListWindow, func([]E) error) error, fn func([]E) error) error {
	p, ok, err := prefixParam(call)
	if err != nil {
		return err
	}
	win := call.window()
	if !ok || p == "" {
		return each(win, fn)
	}
	limit := win.Limit
	win.Limit = 0 // counted here: entries outside the range do not count
	if start := prefixStart(p); win.After < start {
		win.After = start
	}
	sent := 0
	err = each(win, func(page []E) error {
		out := make([]E, 0, len(page))
		done := false
		for _, e := range page {
			k := key(e)
			if k < p {
				continue
			}
			if !strings.HasPrefix(k, p) || (limit > 0 && sent == limit) {
				done = true
				break
			}
			out = append(out, e)
			sent++
		}
		if len(out) > 0 {
			if err := fn(out); err != nil {
				return err
			}
		}
		if done || (limit > 0 && sent == limit) {
			return errPrefixDone
		}
		return nil
	})
	if errors.Is(err, errPrefixDone) {
		return nil
	}
	return err
}

// stringKey is the key of a list of names.
func stringKey(s string) string { return s }
