// Package loginx implements the token-exchange login (POST /api/v1/login):
// it verifies an OAuth/OIDC provider's ID and access tokens, keeps user
// records, and issues, verifies, refreshes and revokes session tokens that
// rolegate's guards accept.
package loginx
