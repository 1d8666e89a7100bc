package authz

import (
	"fmt"

	"github.com/rolegate/rolegate/middleware"
)

// MaxNameLength is the longest name, in Unicode characters.
const MaxNameLength = middleware.MaxNameLength

// ValidName reports whether s is a valid role, permission or user name: 1
// to 128 characters of valid UTF-8, no control characters, no format
// characters (Unicode category Cf, such as zero-width space), no '/', no
// leading or trailing white space. Names are case-sensitive, and every
// entry point normalises them to NFC first (middleware.NormalizeName), so
// a composed and a decomposed "é" are one name.
func ValidName(s string) bool { return middleware.ValidName(s) }

// checkNames returns ErrInvalidName, naming the field, for the first bad
// name of kind/value pairs.
func checkNames(kv ...string) error {
	for i := 0; i+1 < len(kv); i += 2 {
		if !ValidName(kv[i+1]) {
			return fmt.Errorf("%w: %s must be 1 to %d characters of valid UTF-8, with no control or invisible format characters, no '/', and no leading or trailing space", ErrInvalidName, kv[i], MaxNameLength)
		}
	}
	return nil
}
