package middleware

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// ErrInvalidClientKey is returned by ParseClientKey for anything that is not
// a canonical UUID version 4.
var ErrInvalidClientKey = errors.New("invalid client key")

// Reasons passed to ClientKeyConfig.OnRefused. They are fixed strings, safe
// to store in an audit record, and never contain the presented key.
const (
	// ReasonMissingKey: no Authorization header, or "Bearer" with no key.
	ReasonMissingKey = "missing_key"
	// ReasonWrongScheme: an Authorization header with a scheme other than
	// Bearer (for example Basic).
	ReasonWrongScheme = "wrong_scheme"
	// ReasonMalformedKey: a Bearer credential that is not a UUID version 4,
	// or several Authorization headers.
	ReasonMalformedKey = "malformed_key"
	// ReasonUnknownKey: a well-formed key that ClientKeyConfig.Accept
	// refused (not one of the configured admin keys).
	ReasonUnknownKey = "unknown_key"
)

// hexClass classifies bytes: 0 not hex, 1 digit or lower-case hex, 2
// upper-case hex. A table lookup keeps ParseClientKey branch-light; it runs
// on every request.
var hexClass = func() (t [256]byte) {
	for c := '0'; c <= '9'; c++ {
		t[c] = 1
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = 1
	}
	for c := 'A'; c <= 'F'; c++ {
		t[c] = 2
	}
	return t
}()

// ParseClientKey accepts exactly a canonical, hyphenated, 36-character UUID
// version 4 with the RFC 4122 variant, in any letter case, and returns it in
// lower case so that one key maps to one namespace. Braces, "urn:uuid:",
// missing hyphens, white space, other versions and the nil UUID are
// rejected with ErrInvalidClientKey. It does not allocate when s is already
// lower case.
func ParseClientKey(s string) (string, error) {
	if len(s) != 36 {
		return "", ErrInvalidClientKey
	}
	upper := false
	for i := 0; i < len(s); i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if s[i] != '-' {
				return "", ErrInvalidClientKey
			}
			continue
		}
		switch hexClass[s[i]] {
		case 0:
			return "", ErrInvalidClientKey
		case 2:
			upper = true
		}
	}
	// The version nibble is the first of the third group; the variant's top
	// bits (10xx) make the first of the fourth group one of 8, 9, a, b.
	if s[14] != '4' {
		return "", ErrInvalidClientKey
	}
	switch s[19] {
	case '8', '9', 'a', 'b', 'A', 'B':
	default:
		return "", ErrInvalidClientKey
	}
	if upper {
		return strings.ToLower(s), nil
	}
	return s, nil
}

// ClientKeyConfig configures ClientKeyAuth.
type ClientKeyConfig struct {
	// OnRefused, when not nil, is called after a request was refused with
	// 401 and the response written, with one of the Reason constants. authz
	// uses it to audit refused requests. It must not write to the response
	// and never receives the presented key.
	OnRefused func(c *gin.Context, reason string)
	// Accept, when not nil, decides whether a well-formed (lower-case) key
	// may pass; a key it refuses gets the same 401 as a malformed one, with
	// ReasonUnknownKey. Nil accepts every UUID version 4. It runs on every
	// request: compare in constant time or by digest, never with ==.
	Accept func(key string) bool
}

// ClientKeyAuth authenticates the client of a request by
// "Authorization: Bearer <client key>". The scheme is matched without regard
// to case and extra spaces before the key are tolerated. A missing header,
// another scheme, several Authorization headers, or a key that is not a
// UUID version 4 gives 401 with "WWW-Authenticate: Bearer" and the error
// envelope. The key is never echoed or logged. On success the lower-case key
// is available through ClientKeyFrom.
func ClientKeyAuth(cfg ClientKeyConfig) gin.HandlerFunc {
	onRefused, accept := cfg.OnRefused, cfg.Accept
	return func(c *gin.Context) {
		key, reason := bearerClientKey(c.Request.Header)
		if reason == "" && accept != nil && !accept(key) {
			reason = ReasonUnknownKey
		}
		if reason != "" {
			Fail(c, http.StatusUnauthorized, "Unauthorized", refusalDetail(reason))
			if onRefused != nil {
				onRefused(c, reason)
			}
			return
		}
		if r := requestFrom(c); r != nil {
			r.key, r.keyed = key, true // behind RequestID: no entry of its own
		} else {
			c.Set(clientKeyCtx, ctxString(key))
		}
		c.Next()
	}
}

// bearerClientKey extracts and parses the key, or returns a Reason. It reads
// the header map directly (the key is already canonical) so that it does
// not allocate.
func bearerClientKey(h http.Header) (key, reason string) {
	values := h["Authorization"]
	switch {
	case len(values) == 0 || values[0] == "":
		return "", ReasonMissingKey
	case len(values) > 1:
		// Two credentials are ambiguous: refuse rather than pick one.
		return "", ReasonMalformedKey
	}
	v := values[0]
	scheme, rest, found := strings.Cut(v, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", ReasonWrongScheme
	}
	rest = strings.TrimLeft(rest, " ")
	if !found || rest == "" {
		return "", ReasonMissingKey
	}
	key, err := ParseClientKey(rest)
	if err != nil {
		return "", ReasonMalformedKey
	}
	return key, ""
}

func refusalDetail(reason string) string {
	switch reason {
	case ReasonMissingKey:
		return "missing bearer client key"
	case ReasonWrongScheme:
		return "authorization scheme must be Bearer"
	case ReasonUnknownKey:
		return "client key is not accepted here"
	default:
		return "client key must be a UUID version 4"
	}
}
