// Package rbac holds the values and errors that the library API
// (package authz) and the REST layer (authz/internal/rest) share: the
// entries of the lists, the windows a list is read by, the explanation of
// a grant, and the typed errors. authz re-exports each under its own name
// (type aliases, and var ErrX = rbac.ErrX), so errors.Is(err,
// authz.ErrRoleNotFound) holds whichever package returned err.
//
// It imports no package of rolegate's but those that define the sentinels
// it re-exports (storage's and middleware's errors), so that both authz
// and its rooms can import it.
package rbac
