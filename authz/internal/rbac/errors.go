package rbac

import (
	"errors"

	"github.com/rolegate/rolegate/authz/internal/limits"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// Typed errors of the library API; test them with errors.Is.
var (
	// ErrRoleNotFound: a grant, a membership or a listing named a role that
	// does not exist in the client's namespace (HTTP 404).
	ErrRoleNotFound = storage.ErrRoleNotFound
	// ErrInvalidName: a role, permission or user name breaks the naming
	// rule (HTTP 400). Nothing was stored.
	ErrInvalidName = errors.New("invalid name")
	// ErrInvalidClientKey: the client key is not a UUID version 4 (HTTP 401).
	ErrInvalidClientKey = middleware.ErrInvalidClientKey
	// ErrUnavailable: the store could not be reached (HTTP 503). Guards
	// fail closed on it.
	ErrUnavailable = storage.ErrUnavailable
	// ErrNoClientKey: a guard or HostClient was asked for, but no host
	// client key is configured (Config.ClientKey, AUTH_CLIENT_KEY).
	ErrNoClientKey = errors.New("authz: no host client key: set AUTH_CLIENT_KEY (Config.ClientKey) to a UUID v4, e.g. from `go run ./examples/hostapp -new-client-key`")
	// ErrCycle: an inheritance would make a role inherit from itself,
	// directly or through others (HTTP 409). Nothing was stored.
	ErrCycle = storage.ErrCycle
	// ErrUserExists: a rename's new name already holds memberships, and
	// the rename was not asked to merge (HTTP 409). Nothing was changed.
	ErrUserExists = storage.ErrUserExists
	// ErrShapeLimit: an inheritance would give a role a chain of
	// inheritances longer than Config.MaxInheritanceDepth, or more ancestors
	// than Config.MaxRoleAncestors (HTTP 422). The error names the limit and
	// its setting. Nothing was stored.
	ErrShapeLimit = storage.ErrShapeLimit
	// ErrAlreadyExpired: a membership or grant was given an expiry that
	// has already passed (HTTP 422). Nothing was stored.
	ErrAlreadyExpired = errors.New("expiry already passed")
	// ErrClosed: the value returned by Open was closed.
	ErrClosed = errors.New("authz: closed")
	// ErrEncryptionRequired: the store's encryption state, read in the
	// write's own transaction, is not this process's: it runs without
	// encryption and another replica has since turned it on, or with a key
	// the store has rotated away from. The write is refused (HTTP 503)
	// rather than written in plain text or under the wrong key, until this
	// one restarts with the store's key. Wraps ErrUnavailable.
	ErrEncryptionRequired = storage.ErrKeyMismatch
	// ErrQuotaExceeded: in open mode (no admin keys configured), a write
	// would take a namespace past AUTH_MAX_ROWS_PER_CLIENT rows, or the
	// store past AUTH_MAX_NAMESPACES namespaces. Nothing was stored. HTTP
	// 507 Insufficient Storage: the request is fine but the server will not
	// store more for it, and waiting does not change that (429 would tell a
	// client to retry later, which never helps here); deleting rows, or an
	// operator raising the limit, does.
	ErrQuotaExceeded = errors.New("storage quota exceeded")
	// ErrBadRequest: a malformed request, body, batch or query parameter
	// (HTTP 400).
	ErrBadRequest = errors.New("malformed request")
	// ErrRateLimited: in open mode, a client is over its write rate
	// (AUTH_OPEN_WRITES_PER_SECOND) or its store-reading requests in
	// flight (AUTH_MAX_READS_IN_FLIGHT). Nothing was done; the error is a
	// *limits.Refused saying when to retry (HTTP 429 with Retry-After).
	ErrRateLimited = limits.ErrTooMany
	// ErrForbidden: a person on the admin plane lacks the permission a
	// request needs (HTTP 403); the error names it.
	ErrForbidden = errors.New("forbidden")
)
