package samples

import (
	"errors"
	"time"
)

// Environment variables read by ConfigFromEnv.
const (
	// EnvUsername names the variable holding the Basic-auth user name.
	EnvUsername = "AUTH_SAMPLES_USERNAME"
	// EnvPassword names the variable holding the Basic-auth password.
	EnvPassword = "AUTH_SAMPLES_PASSWORD"
	// EnvAPIKey names the variable holding the X-API-KEY value for GET /api/test.
	EnvAPIKey = "AUTH_SAMPLES_API_KEY"
	// EnvName names the optional variable holding the Name that GET /api/test answers.
	EnvName = "AUTH_SAMPLES_NAME"
	// EnvEmail names the optional variable holding the Email that GET /api/test answers.
	EnvEmail = "AUTH_SAMPLES_EMAIL"
)

// Defaults for the identity that GET /api/test answers.
const (
	// DefaultName is the Name answered when Config.Name is empty.
	DefaultName = "Sample User"
	// DefaultEmail is the Email answered when Config.Email is empty.
	DefaultEmail = "sample@example.com"
)

// DisabledHint is the one line to print at startup when the sample routes are
// not mounted because their credentials are not configured.
const DisabledHint = "sample routes GET /api/ping and GET /api/test are disabled; " +
	"set AUTH_SAMPLES_USERNAME, AUTH_SAMPLES_PASSWORD and AUTH_SAMPLES_API_KEY to enable them"

// ErrNotEnabled is returned (wrapped) by Register when the config lacks a
// user name, a password or an API key.
var ErrNotEnabled = errors.New("samples: credentials not configured")

// Config holds the sample endpoints' credentials and the identity that
// GET /api/test answers. The zero value is valid but not Enabled.
type Config struct {
	// Username is the Basic-auth user name both routes require.
	Username string
	// Password is the Basic-auth password both routes require.
	Password string
	// APIKey is the X-API-KEY header value GET /api/test requires in
	// addition to the Basic credentials.
	APIKey string
	// Name is answered by GET /api/test; DefaultName when empty.
	Name string
	// Email is answered by GET /api/test; DefaultEmail when empty.
	Email string
	// Now returns the current time for GET /api/ping and for the error
	// envelope's timestamp; time.Now when nil. Tests set it.
	Now func() time.Time
}

// Enabled reports whether the user name, the password and the API key are all
// set, that is, whether Register will mount the routes.
func (c Config) Enabled() bool {
	return c.Username != "" && c.Password != "" && c.APIKey != ""
}

// ConfigFromEnv builds a Config from AUTH_SAMPLES_USERNAME,
// AUTH_SAMPLES_PASSWORD, AUTH_SAMPLES_API_KEY and the optional
// AUTH_SAMPLES_NAME and AUTH_SAMPLES_EMAIL, looked up through getenv
// (os.Getenv, or a lookup that also consults a .env file). Values are used
// exactly as given, without trimming.
func ConfigFromEnv(getenv func(string) string) Config {
	return Config{
		Username: getenv(EnvUsername),
		Password: getenv(EnvPassword),
		APIKey:   getenv(EnvAPIKey),
		Name:     getenv(EnvName),
		Email:    getenv(EnvEmail),
	}
}

// missing lists the required fields that are empty, by environment name.
func (c Config) missing() []string {
	var m []string
	if c.Username == "" {
		m = append(m, EnvUsername)
	}
	if c.Password == "" {
		m = append(m, EnvPassword)
	}
	if c.APIKey == "" {
		m = append(m, EnvAPIKey)
	}
	return m
}
