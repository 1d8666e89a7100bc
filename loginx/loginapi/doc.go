// Package loginapi is the login's side of its contract with authz: the
// login's settings (Config, the providers read from the environment), the
// Login interface that loginx.Start returns, and the re-sealing of the
// stored session secret when the encryption key rotates.
//
// It imports no OIDC, JOSE, OAuth 2 or JWT library, so authz depends on it
// and not on loginx: a host links the login only by importing loginx and
// setting Config.Login = loginx.Start.
package loginapi
