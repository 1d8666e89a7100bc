package loginx

import "github.com/rolegate/rolegate/loginx/loginapi"

// ProviderConfig describes one OAuth/OIDC provider (see
// loginapi.ProviderConfig).
type ProviderConfig = loginapi.ProviderConfig

// MaxProviderName is the longest provider name, in characters.
const MaxProviderName = loginapi.MaxProviderName

// EnvName returns the NAME used in a provider's environment variables:
// upper-cased, with every character other than A-Z and 0-9 as '_'.
func EnvName(service string) string { return loginapi.EnvName(service) }

// ProvidersFromEnv reads the providers from the environment (see
// loginapi.ProvidersFromEnv).
func ProvidersFromEnv(getenv func(string) string) ([]ProviderConfig, error) {
	return loginapi.ProvidersFromEnv(getenv)
}
