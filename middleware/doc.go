// Package middleware holds rolegate's Gin middleware that needs no storage:
// client-key bearer authentication (ClientKeyAuth, ParseClientKey), the
// guard engine (NewGuard, over the small Checker and Resolver types it
// declares, with scopes, host predicates and a GuardObserver that sees
// every decision, for authz's metrics and decision log; hosts call authz's
// RequirePermission and its siblings, which build on it), the success and
// error envelopes
// (Respond, Fail), panic recovery, envelope 404/405 handlers, body limits,
// request ids, CORS, request logging, and the remote address as trusted
// proxies let it be known (TrustedProxies). It imports no other rolegate
// package; authz satisfies its interfaces.
//
// Values a middleware establishes for a request (client key, authorised
// user, our request id, the client's own request id) are stored under
// unexported context keys and read with typed accessors: ClientKeyFrom,
// UserFrom, RequestIDFrom, ClientRequestIDFrom.
//
// Nothing here logs or echoes request headers, query strings or bodies:
// they carry client keys and session tokens.
package middleware
