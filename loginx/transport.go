package loginx

import (
	"fmt"
	"net/http"
)

// unavailableTransport marks what means "the provider cannot be reached"
// (a transport failure, a 5xx or a 429 answer) with ErrProviderUnavailable, so
// that the error survives go-oidc's wrapping and login answers 503, not
// 401.
type unavailableTransport struct{ base http.RoundTripper }

type unavailableError struct{ cause error }

func (e unavailableError) Error() string   { return "identity provider unavailable: " + e.cause.Error() }
func (e unavailableError) Unwrap() []error { return []error{ErrProviderUnavailable, e.cause} }

func (t unavailableTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, unavailableError{err}
	}
	// 429: the provider is rate-limiting us; like a 5xx, nothing is wrong
	// with the caller's tokens, so it must not read as a 401.
	if resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests {
		resp.Body.Close()
		return nil, unavailableError{fmt.Errorf("%s answered %s", r.URL.Redacted(), resp.Status)}
	}
	return resp, nil
}

// providerClient returns a copy of c whose transport marks outages.
func providerClient(c *http.Client) *http.Client {
	cp := *c
	base := cp.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cp.Transport = unavailableTransport{base}
	return &cp
}
