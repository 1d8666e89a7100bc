package authz

import (
	"github.com/rolegate/rolegate/authz/internal/rbac"
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
func checkNames(kv ...string) error { return rbac.CheckNames(kv...) }
