package feed

// Revision tokens: the text form of a client's revision (the counter every
// write of the client bumps in its own transaction), which a read that
// follows a write names. authz re-exports what a host uses; the REST layer
// uses it directly.

import (
	"errors"
	"fmt"
	"strconv"
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
