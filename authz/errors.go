package authz

import (
	"errors"
	"fmt"

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
	// ErrClosed: the value returned by Open was closed.
	ErrClosed = errors.New("authz: closed")
	// ErrEncryptionRequired: this process runs without encryption, and
	// another replica has since turned it on for the store. Writes are
	// refused (HTTP 503) until this one restarts with the key: in plain,
	// its revokes would miss the encrypted rows. Wraps ErrUnavailable.
	ErrEncryptionRequired = fmt.Errorf("%w: another replica turned encryption on for this store; restart this one with AUTH_ENABLE_ENCRYPTION=true and its AUTH_ENCRYPTION_KEY", ErrUnavailable)
)
