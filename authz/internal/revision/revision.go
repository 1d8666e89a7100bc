// Package revision holds the revision tokens of rolegate's reads that
// follow a write: the text form of a client's revision (the counter every
// write of the client bumps in its own transaction), and the context that
// a write fills with the token of what it wrote. authz re-exports what a
// host uses; the REST layer uses it directly.
package revision

import (
	"context"
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

type recorderKey struct{}

// Record returns a context with which a write stores the token of its
// revision in *dst once it succeeded: the revision it made, or, for a
// write that found nothing to do, the client's revision read after it (a
// state in which what it asked for holds). *dst stays empty when a write
// fails, or when that read fails.
func Record(ctx context.Context, dst *string) context.Context {
	return context.WithValue(ctx, recorderKey{}, dst)
}

// Recorder is the destination Record put in ctx; nil when none.
func Recorder(ctx context.Context) *string {
	dst, _ := ctx.Value(recorderKey{}).(*string)
	return dst
}
