// Package loginxtest is an in-process OpenID Connect provider for tests:
// an httptest server on loopback with its own RSA and EC keys, discovery,
// JWKS and a userinfo endpoint, that mints genuine and deliberately broken
// ID tokens and access tokens, and can go down to simulate an outage.
package loginxtest
