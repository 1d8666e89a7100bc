package loginx

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/rolegate/rolegate/loginx/loginapi"
)

// Config configures the login service (see loginapi.Config).
type Config = loginapi.Config

// Defaults of Config.
const (
	DefaultJWTAlgorithm           = loginapi.DefaultJWTAlgorithm
	DefaultAccessTTL              = loginapi.DefaultAccessTTL
	DefaultRefreshTTL             = loginapi.DefaultRefreshTTL
	DefaultRevocationPollInterval = loginapi.DefaultRevocationPollInterval
	DefaultLeeway                 = loginapi.DefaultLeeway
	DefaultKeySetRefreshInterval  = loginapi.DefaultKeySetRefreshInterval
	DefaultLoginAttemptsPerMinute = loginapi.DefaultLoginAttemptsPerMinute
	DefaultIssuer                 = loginapi.DefaultIssuer
	DefaultTokenCacheSize         = loginapi.DefaultTokenCacheSize
	SessionLeeway                 = loginapi.SessionLeeway
	MinSecretLen                  = loginapi.MinSecretLen
	MaxBodyBytes                  = loginapi.MaxBodyBytes
)

// withDefaults validates cfg and fills in defaults.
func withDefaults(cfg Config) (Config, error) {
	if cfg.JWTAlgorithm == "" {
		cfg.JWTAlgorithm = DefaultJWTAlgorithm
	}
	switch cfg.JWTAlgorithm {
	case "HS256", "HS384", "HS512":
	default:
		return cfg, fmt.Errorf("loginx: JWT algorithm %q is not supported (use HS256, HS384 or HS512)", cfg.JWTAlgorithm)
	}
	if cfg.JWTSecret != "" && len(cfg.JWTSecret) < MinSecretLen {
		return cfg, fmt.Errorf("loginx: the JWT secret is %d bytes; at least %d are required", len(cfg.JWTSecret), MinSecretLen)
	}
	if cfg.SecretWrapKey != "" && len(cfg.SecretWrapKey) < MinSecretLen {
		return cfg, fmt.Errorf("loginx: the JWT secret wrap key is %d bytes; at least %d are required", len(cfg.SecretWrapKey), MinSecretLen)
	}
	if cfg.AccessTTL < 0 || cfg.RefreshTTL < 0 || cfg.RevocationPollInterval < 0 || cfg.Leeway < 0 {
		return cfg, fmt.Errorf("loginx: durations must not be negative")
	}
	if cfg.AccessTTL == 0 {
		cfg.AccessTTL = DefaultAccessTTL
	}
	if cfg.RefreshTTL == 0 {
		cfg.RefreshTTL = DefaultRefreshTTL
	}
	if cfg.RevocationPollInterval == 0 {
		cfg.RevocationPollInterval = DefaultRevocationPollInterval
	}
	if cfg.Leeway == 0 {
		cfg.Leeway = DefaultLeeway
	}
	if cfg.KeySetRefreshInterval <= 0 {
		cfg.KeySetRefreshInterval = DefaultKeySetRefreshInterval
	}
	if cfg.LoginAttemptsPerMinute == 0 {
		cfg.LoginAttemptsPerMinute = DefaultLoginAttemptsPerMinute
	}
	if cfg.Issuer == "" {
		cfg.Issuer = DefaultIssuer
	}
	if cfg.TokenCacheSize <= 0 {
		cfg.TokenCacheSize = DefaultTokenCacheSize
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	seen := map[string]bool{}
	for _, p := range cfg.Providers {
		if err := p.Validate(); err != nil {
			return cfg, err
		}
		if seen[p.Name] {
			return cfg, fmt.Errorf("loginx: provider %q is configured twice", p.Name)
		}
		seen[p.Name] = true
	}
	return cfg, nil
}
