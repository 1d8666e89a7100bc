package rest

import (
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// The body of POST /api/check is read by a scanner of its one shape,
// {"checks": [{"user": S, "permission": S, "scope": S}, ...]}, instead of
// encoding/json: a batch exists to be cheaper than the checks one by one,
// and decoding 100 checks with encoding/json cost about as much CPU as
// 20 single requests. It accepts a subset of what encoding/json accepts
// into the same Go shape, with the same strings (TestCheckBodyAgreesWithEncodingJSON
// and FuzzCheckBody hold it to that): keys match exactly and once, where
// encoding/json folds case and lets the last of two win.

// errCheckSyntax is a body that is not JSON of the shape at all;
// errCheckKeys one whose object has another key than "checks", or that
// key twice (stricter than encoding/json, which folds case and lets the
// last win).
var (
	errCheckSyntax = errors.New("malformed check body")
	errCheckKeys   = errors.New(`the body's one key is "checks"`)
)

// checkShapeError is a check that is JSON but not a check: a key it does
// not know or has twice, a value that is not a string.
type checkShapeError struct{ index int }

func (e checkShapeError) Error() string {
	return fmt.Sprintf(`check %d: must be {"user", "permission", "scope"} with string values (scope optional)`, e.index)
}

// checkCountError is check index max, one too many.
type checkCountError struct{ index, max int }

func (e checkCountError) Error() string {
	return fmt.Sprintf("check %d: at most %d checks in one request", e.index, e.max)
}

// rawCheck is one check as sent: scope nil when absent or null.
type rawCheck struct {
	user, permission string
	scope            *string
}

type checkScanner struct {
	b []byte
	i int
}

// scanChecks reads body, refusing check max (the max+1st) as soon as it
// comes to it.
func scanChecks(body []byte, max int) ([]rawCheck, error) {
	s := &checkScanner{b: body}
	out := []rawCheck{}
	if !s.consume('{') {
		return nil, errCheckSyntax
	}
	if !s.consume('}') {
		key, ok := s.strBytes()
		if !ok || !s.consume(':') {
			return nil, errCheckSyntax
		}
		if string(key) != "checks" {
			return nil, errCheckKeys
		}
		switch {
		case s.literal("null"):
		case s.consume('['):
			if !s.consume(']') {
				for {
					if len(out) == max {
						return nil, checkCountError{index: max, max: max}
					}
					ck, err := s.check(len(out))
					if err != nil {
						return nil, err
					}
					out = append(out, ck)
					if s.consume(']') {
						break
					}
					if !s.consume(',') {
						return nil, errCheckSyntax
					}
				}
			}
		default:
			return nil, errCheckSyntax
		}
		if !s.consume('}') {
			if s.consume(',') {
				return nil, errCheckKeys
			}
			return nil, errCheckSyntax
		}
	}
	s.space()
	if s.i != len(s.b) {
		return nil, errCheckSyntax
	}
	return out, nil
}

// check reads one check object.
func (s *checkScanner) check(index int) (rawCheck, error) {
	var ck rawCheck
	if !s.consume('{') {
		if s.startsValue() {
			return ck, checkShapeError{index}
		}
		return ck, errCheckSyntax
	}
	if s.consume('}') {
		return ck, nil
	}
	var seen [3]bool
	for {
		key, ok := s.strBytes()
		if !ok || !s.consume(':') {
			return ck, errCheckSyntax
		}
		field := -1
		switch string(key) {
		case "user":
			field = 0
		case "permission":
			field = 1
		case "scope":
			field = 2
		}
		if field < 0 || seen[field] {
			return ck, checkShapeError{index}
		}
		seen[field] = true
		if !s.literal("null") {
			v, ok := s.str()
			if !ok {
				if s.startsValue() {
					return ck, checkShapeError{index}
				}
				return ck, errCheckSyntax
			}
			switch field {
			case 0:
				ck.user = v
			case 1:
				ck.permission = v
			case 2:
				scope := v
				ck.scope = &scope
			}
		}
		if s.consume('}') {
			return ck, nil
		}
		if !s.consume(',') {
			return ck, errCheckSyntax
		}
	}
}

// space skips JSON white space.
func (s *checkScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// consume skips white space and c, reporting whether c was there.
func (s *checkScanner) consume(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// literal consumes the word w (null) after white space.
func (s *checkScanner) literal(w string) bool {
	s.space()
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

// startsValue reports whether a JSON value other than a string or an
// object could start here (a number, true, false, an array): a check's
// field or the check itself of the wrong type, not a broken body. Its
// syntax beyond the first byte is not read: the request is refused
// either way.
func (s *checkScanner) startsValue() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '-' || c >= '0' && c <= '9', c == '[', c == '{':
		return true
	}
	return s.literal("true") || s.literal("false")
}

// str reads a JSON string after white space, decoded as encoding/json
// decodes it: escapes resolved, an invalid UTF-8 byte or a lone surrogate
// as U+FFFD.
func (s *checkScanner) str() (string, bool) {
	b, ok := s.strBytes()
	return string(b), ok
}

// strBytes is str without the string: the body's own bytes when the
// string holds no escape (a key is compared without a copy).
func (s *checkScanner) strBytes() ([]byte, bool) {
	if !s.consume('"') {
		return nil, false
	}
	start := s.i
	plain := true
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			raw := s.b[start:s.i]
			s.i++
			if plain && utf8.Valid(raw) {
				return raw, true
			}
			return unquote(raw)
		case c == '\\':
			plain = false
			s.i += 2
		case c < 0x20:
			return nil, false
		default:
			s.i++
		}
	}
	return nil, false
}

// unquote decodes the inside of a JSON string that holds escapes or
// invalid UTF-8, as encoding/json does.
func unquote(raw []byte) ([]byte, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			if i+1 >= len(raw) {
				return nil, false
			}
			switch e := raw[i+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(raw[i+2:])
				if !ok {
					return nil, false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						if r2, ok := hex4(raw[i+2:]); ok {
							if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
								out = utf8.AppendRune(out, dec)
								i += 6
								continue
							}
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
				continue
			default:
				return nil, false
			}
			i += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, raw[i:i+size]...)
			}
			i += size
		}
	}
	return out, true
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// asChecks normalises the checks' names (NFC, as the path's names are)
// and applies the naming rule, naming the first bad check by index.
func asChecks(raw []rawCheck) ([]rbac.Check, error) {
	out := make([]rbac.Check, len(raw))
	for i, in := range raw {
		ck, err := checkNamesOf(i, in)
		if err != nil {
			return nil, err
		}
		out[i] = ck
	}
	return out, nil
}
