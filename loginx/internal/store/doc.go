// Package store is the login store of loginx: users found by (service,
// subject), sessions, hashed refresh tokens and revocations, with the
// migrations that make their tables. The migrations join storage's (the
// same rolegate_migrations table and lock, the same names as before), so
// that a store made by an earlier release keeps opening.
package store
