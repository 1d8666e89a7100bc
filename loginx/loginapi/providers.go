package loginapi

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/rolegate/rolegate/middleware"
)

// MaxProviderName is the longest provider name, in characters.
const MaxProviderName = 60

// ProviderConfig describes one OAuth/OIDC provider.
type ProviderConfig struct {
	// Name is the serviceName clients send at login.
	Name string
	// Issuer is the OIDC issuer; discovery is at
	// Issuer + "/.well-known/openid-configuration".
	Issuer string
	// ClientIDs are the accepted audiences of ID tokens.
	ClientIDs []string
	// JWKSURL overrides the discovered jwks_uri (optional).
	JWKSURL string
	// UserInfoURL overrides the discovered userinfo_endpoint (optional).
	UserInfoURL string
	// UserClaim names the ID token claim that becomes a new user's RBAC
	// user name (e.g. "email"). Empty: the name is "<Name>:<subject>".
	// The claim is read from the verified ID token only; "email" needs
	// email_verified true (and is lower-cased), "phone_number"
	// phone_number_verified. Claims the user sets (preferred_username,
	// name, nickname, ...) are refused. A name already held by another
	// account refuses the login (409).
	UserClaim string
}

// Validate reports the first problem of p: a name that cannot prefix a
// user name, a user claim the user controls, a URL that is not http(s),
// no client id.
func (p ProviderConfig) Validate() error {
	if strings.TrimSpace(p.Name) == "" {
		return fmt.Errorf("loginx: a provider has an empty name")
	}
	// ':' ends the provider part of a derived user name, and the longest
	// derived name (provider, ":~", 64 hex digits) must stay a valid name.
	if strings.Contains(p.Name, ":") || !middleware.ValidName(p.Name) || utf8.RuneCountInString(p.Name) > MaxProviderName {
		return fmt.Errorf("loginx: provider name %q must be a valid name of at most %d characters without ':'", p.Name, MaxProviderName)
	}
	if err := checkUserClaim(p.UserClaim); err != nil {
		return fmt.Errorf("loginx: provider %q: %w", p.Name, err)
	}
	if err := checkURL(p.Issuer); err != nil {
		return fmt.Errorf("loginx: provider %q: issuer: %w", p.Name, err)
	}
	if len(p.ClientIDs) == 0 {
		return fmt.Errorf("loginx: provider %q: no client id", p.Name)
	}
	for _, id := range p.ClientIDs {
		if id == "" {
			return fmt.Errorf("loginx: provider %q: empty client id", p.Name)
		}
	}
	for _, u := range []string{p.JWKSURL, p.UserInfoURL} {
		if u == "" {
			continue
		}
		if err := checkURL(u); err != nil {
			return fmt.Errorf("loginx: provider %q: %w", p.Name, err)
		}
	}
	return nil
}

func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL", s)
	}
	return nil
}

// EnvName returns the NAME used in a provider's environment variables:
// upper-cased, with every character other than A-Z and 0-9 as '_'.
func EnvName(service string) string {
	b := []byte(strings.ToUpper(service))
	for i, c := range b {
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

// ProvidersFromEnv reads AUTH_OAUTH_PROVIDERS (comma-separated service
// names) and, for each NAME (see EnvName), AUTH_OAUTH_<NAME>_ISSUER,
// AUTH_OAUTH_<NAME>_CLIENT_ID (comma-separated audiences), and the
// optional AUTH_OAUTH_<NAME>_JWKS_URL, AUTH_OAUTH_<NAME>_USERINFO_URL and
// AUTH_OAUTH_<NAME>_USER_CLAIM.
// It returns nil when no provider is configured, and an error naming the
// variable for each bad setting.
func ProvidersFromEnv(getenv func(string) string) ([]ProviderConfig, error) {
	var out []ProviderConfig
	seen := map[string]string{}
	for _, name := range splitList(getenv("AUTH_OAUTH_PROVIDERS")) {
		env := EnvName(name)
		if prev, ok := seen[env]; ok {
			return nil, fmt.Errorf("AUTH_OAUTH_PROVIDERS: %q and %q both use AUTH_OAUTH_%s_*", prev, name, env)
		}
		seen[env] = name
		v := func(suffix string) (string, string) {
			k := "AUTH_OAUTH_" + env + "_" + suffix
			return k, strings.TrimSpace(getenv(k))
		}
		p := ProviderConfig{Name: name}
		k, iss := v("ISSUER")
		if iss == "" {
			return nil, fmt.Errorf("%s is required for provider %q", k, name)
		}
		if err := checkURL(iss); err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		p.Issuer = iss
		k, ids := v("CLIENT_ID")
		if p.ClientIDs = splitList(ids); len(p.ClientIDs) == 0 {
			return nil, fmt.Errorf("%s is required for provider %q", k, name)
		}
		for _, f := range []struct {
			suffix string
			dst    *string
		}{{"JWKS_URL", &p.JWKSURL}, {"USERINFO_URL", &p.UserInfoURL}} {
			k, u := v(f.suffix)
			if u == "" {
				continue
			}
			if err := checkURL(u); err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			*f.dst = u
		}
		k, p.UserClaim = v("USER_CLAIM")
		if err := checkUserClaim(p.UserClaim); err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out = append(out, p)
	}
	return out, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// userEditableClaims are standard OIDC claims that the person (not the
// provider) sets, or that providers do not promise to keep unique
// (OpenID Connect Core 5.1: preferred_username "MUST NOT" be relied on).
// Naming one of them as a provider's UserClaim is refused at startup.
var userEditableClaims = map[string]bool{
	"name": true, "given_name": true, "family_name": true, "middle_name": true,
	"nickname": true, "preferred_username": true, "profile": true, "picture": true,
	"website": true, "gender": true, "birthdate": true, "zoneinfo": true,
	"locale": true, "address": true, "updated_at": true,
}

// checkUserClaim reports why claim may not be a provider's UserClaim.
func checkUserClaim(claim string) error {
	switch {
	case claim == "":
		return nil
	case userEditableClaims[claim]:
		return fmt.Errorf("the claim %q is set by the user (or not unique) and cannot be an RBAC user name; use the default (provider and subject), email, or a claim your provider's administrators assign", claim)
	case strings.HasSuffix(claim, "_verified") || claim == "sub":
		return fmt.Errorf("the claim %q cannot be an RBAC user name", claim)
	}
	return nil
}
