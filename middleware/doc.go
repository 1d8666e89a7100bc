// Package middleware holds rolegate's Gin middleware that needs no storage:
// client-key bearer authentication, the guard core (over the small Checker
// interface it declares), the response envelopes, recovery, CORS and body
// limits. It imports no other rolegate package; authz satisfies its
// interfaces.
package middleware
