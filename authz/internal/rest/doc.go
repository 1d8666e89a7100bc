// Package rest is rolegate's REST admin API and its OpenAPI document.
//
// Its handlers check and decode a request, call the library API of the
// request's client key (Client: the methods of the same *authz.Client a
// host calls, its Each methods for the lists), and write the envelope; they
// never read or write the store themselves. What they need of the value
// that mounts them (a client per key, the request context the audit log
// reads, the audit of a refusal) is the Host interface, which authz
// satisfies. StatusOf is the one place where an error becomes an HTTP
// status.
package rest
