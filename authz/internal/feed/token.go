package feed

// Revision tokens: the text form of a client's revision (the counter every
// write of the client bumps in its own transaction), which a read that
// follows a write names. authz re-exports what a host uses; the REST layer
// uses it directly.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalid: a revision token is malformed, or names a revision the
// client's store has not reached (HTTP 400).
var ErrInvalid = errors.New("invalid revision token")

// Format is the token of revision rev: "r" and the decimal number.
// Callers treat it as opaque.
func Format(rev int64) string {
	return "r" + strconv.FormatInt(rev, 10)
}

// maxLen bounds a token: "r" and the 19 digits of the largest int64.
const maxLen = 20

// Parse reads a token made by Format. Anything else (another prefix, a
// sign, leading zeros, spaces, a number past int64) is ErrInvalid.
func Parse(token string) (int64, error) {
	if len(token) < 2 || len(token) > maxLen || token[0] != 'r' {
		return 0, fmt.Errorf("%w: expected r followed by a number, as a Rolegate-Revision header or GET /api/revision gives", ErrInvalid)
	}
	digits := token[1:]
	if len(digits) > 1 && digits[0] == '0' {
		return 0, fmt.Errorf("%w: expected r followed by a number without leading zeros", ErrInvalid)
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, fmt.Errorf("%w: expected r followed by a number, as a Rolegate-Revision header or GET /api/revision gives", ErrInvalid)
		}
	}
	rev, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: the number is out of range", ErrInvalid)
	}
	return rev, nil
}

// FormatCursor is a position in the public change feed: after revision
// rev, and when seq is not -1 after that revision's entry seq ("r42.999":
// a page that ended inside a revision). Callers treat it as opaque.
func FormatCursor(rev int64, seq int) string {
	if seq < 0 {
		return Format(rev)
	}
	return Format(rev) + "." + strconv.Itoa(seq)
}

// ParseCursor reads a cursor made by FormatCursor (or a token made by
// Format: seq -1).
func ParseCursor(cursor string) (rev int64, seq int, err error) {
	token, entry, inside := strings.Cut(cursor, ".")
	if rev, err = Parse(token); err != nil || !inside {
		return rev, -1, err
	}
	n, err := strconv.ParseUint(entry, 10, 31)
	if err != nil || len(entry) > 1 && entry[0] == '0' {
		return 0, 0, fmt.Errorf("%w: expected r followed by a number, and optionally a dot and the number of an entry, as a page's next gives", ErrInvalid)
	}
	return rev, int(n), nil
}
