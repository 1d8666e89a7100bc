package storage

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/uptrace/bun/driver/pgdriver"
)

// Sentinel errors. authz re-exports them under its own names.
var (
	// ErrUnavailable means the database could not be reached or did not
	// answer in time. Callers must fail closed.
	ErrUnavailable = errors.New("store unavailable")
	// ErrRoleNotFound means the role named by a grant, a membership or a
	// listing does not exist in the client's namespace.
	ErrRoleNotFound = errors.New("role not found")
	// ErrCycle means an inheritance would make a role inherit from itself.
	ErrCycle = errors.New("inheritance would make a cycle")
	// ErrUserExists means a rename's new name already holds memberships
	// (and the rename was not asked to merge them).
	ErrUserExists = errors.New("the new user name already holds memberships")
	// ErrShapeLimit means an inheritance would give a role a chain of
	// inheritances longer than Scope.MaxInheritanceDepth, or more ancestors
	// than Scope.MaxRoleAncestors. The error names the limit and its
	// setting.
	ErrShapeLimit = errors.New("inheritance past a limit")
	// ErrKeyMismatch: a write found that the store's encryption state (the
	// writer key check value in rolegate_settings) is not this process's:
	// it runs without encryption on an encrypted store, or with a key the
	// store is no longer (or not yet) written under. The write is rolled
	// back; it wraps ErrUnavailable (HTTP 503).
	ErrKeyMismatch = fmt.Errorf("%w: the store's encryption key is not this process's (encryption was turned on, or the key rotated, elsewhere); restart with the store's AUTH_ENABLE_ENCRYPTION and AUTH_ENCRYPTION_KEY", ErrUnavailable)
)

type unavailableError struct{ cause error }

func (e unavailableError) Error() string { return "store unavailable: " + e.cause.Error() }
func (e unavailableError) Unwrap() []error {
	return []error{ErrUnavailable, e.cause}
}

// Classify wraps connection-level failures (refused, reset, timed out,
// server shutting down, database file unopenable or locked past the busy
// timeout) so that errors.Is(err, ErrUnavailable) holds. Other errors are
// returned unchanged.
func Classify(err error) error {
	if err == nil || errors.Is(err, ErrUnavailable) {
		return err
	}
	if isUnavailable(err) {
		return unavailableError{cause: err}
	}
	return err
}

func isUnavailable(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, net.ErrClosed) {
		return true
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return true
	}
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		code := pgErr.Field('C')
		// Class 08: connection exception; 57P0x: shutdown, cannot connect
		// now; 53300: too many connections; class 28: the credentials
		// stopped working (a rotated password); 3D000: the database is
		// gone. All are the store being out of reach, not a bug.
		return strings.HasPrefix(code, "08") || strings.HasPrefix(code, "57P0") || code == "53300" ||
			strings.HasPrefix(code, "28") || code == "3D000"
	}
	msg := err.Error()
	// modernc.org/sqlite reports these by message only.
	return strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked") ||
		strings.Contains(msg, "SQLITE_CANTOPEN") || strings.Contains(msg, "unable to open database") ||
		strings.Contains(msg, "sql: database is closed")
}

// IsRetryable reports a transaction PostgreSQL rolled back so that
// another could go on: a deadlock (40P01) or a serialization failure
// (40001). Nothing of it was stored; running it again is safe.
func IsRetryable(err error) bool {
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		code := pgErr.Field('C')
		return code == "40P01" || code == "40001"
	}
	return false
}

// isUniqueViolation reports a unique or primary-key conflict.
func isUniqueViolation(err error) bool {
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		return pgErr.Field('C') == "23505"
	}
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}

// isForeignKeyViolation reports a foreign-key conflict: in rolegate, a
// grant or membership whose role was deleted under it.
func isForeignKeyViolation(err error) bool {
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		return pgErr.Field('C') == "23503"
	}
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}

// isDuplicateObject reports a CREATE that lost a race with another
// replica's identical CREATE ... IF NOT EXISTS (PostgreSQL checks the
// catalog before it locks it).
func isDuplicateObject(err error) bool {
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		code := pgErr.Field('C')
		return code == "42P07" || code == "42710"
	}
	return err != nil && strings.Contains(err.Error(), "already exists")
}

// IsUniqueViolation reports a unique or primary-key conflict, on either
// database: for a caller outside storage (the login store) that classifies
// one into a conflict of its own.
func IsUniqueViolation(err error) bool { return isUniqueViolation(err) }
