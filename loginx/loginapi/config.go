package loginapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/rolegate/rolegate/storage/cipher"
)

// Config configures the login service. The zero value of every field but
// Providers has a usable default.
type Config struct {
	// Providers are the OAuth/OIDC providers accepted as serviceName.
	Providers []ProviderConfig
	// JWTSecret signs session tokens. Empty: a 32-byte secret is generated
	// once and kept in the store sealed under SecretCipher or SecretWrapKey
	// (setting "jwt_secret_sealed"), so that restarts and replicas agree;
	// with neither, New refuses to start. An explicit secret under 32 bytes
	// is refused.
	JWTSecret string
	// SecretCipher, when set (encryption is configured), seals the
	// generated secret at rest. It takes precedence over SecretWrapKey.
	SecretCipher *cipher.Cipher
	// SecretWrapKey, when set, seals the generated secret at rest with
	// AES-256-GCM (at least 32 bytes). AUTH_JWT_SECRET_WRAP_KEY.
	SecretWrapKey string
	// JWTAlgorithm is HS256 (default), HS384 or HS512.
	JWTAlgorithm string
	// AccessTTL is the lifetime of an authToken (default 24h).
	AccessTTL time.Duration
	// RefreshTTL is the lifetime of a refresh token (default 7 days).
	RefreshTTL time.Duration
	// Roles returns the user's roles for the me record (authz sets it to
	// the roles under AUTH_CLIENT_KEY). Nil: an empty list.
	Roles func(ctx context.Context, username string) ([]string, error)
	// HTTPClient calls the providers (discovery, keys, userinfo). Nil: a
	// client with a 10 s timeout.
	HTTPClient *http.Client
	// Logger receives warnings and refusals; never a token or a secret.
	// Nil: slog.Default().
	Logger *slog.Logger
	// RevocationPollInterval is how often revocations made by other
	// replicas are read from the store (default 1s).
	RevocationPollInterval time.Duration
	// Leeway is the clock skew tolerated on the provider's exp, nbf and
	// iat (default 5s). Session tokens have their own (SessionLeeway).
	Leeway time.Duration
	// KeySetRefreshInterval is the least time between two fetches of a
	// provider's key set; a fetch happens only for an ID token whose kid
	// is unknown (default 1 minute).
	KeySetRefreshInterval time.Duration
	// LoginAttemptsPerMinute bounds POST /api/v1/login per remote address
	// (RemoteAddr): bursts of that many, refilled at that rate; more
	// answer 429 (default 30; negative: no limit).
	LoginAttemptsPerMinute int
	// RemoteAddr returns the client address a login attempt is counted
	// under. Nil: Gin's ClientIP, which believes X-Forwarded-For from
	// every peer unless the engine's trusted proxies are set; authz
	// passes its own (AUTH_TRUSTED_PROXIES, none by default).
	RemoteAddr func(*http.Request) string
	// Issuer is the iss claim of session tokens (default "rolegate").
	Issuer string
	// TokenCacheSize bounds the cache of verified session tokens (default
	// 65536 entries; it is emptied when full).
	TokenCacheSize int
	// OnLogin, when set, is told the outcome of every login attempt:
	// the serviceName as sent (empty when the request did not parse; it
	// may name no configured provider) and "success" or the error code
	// of the answer ("invalid-token", "too-many-requests", ...). For
	// metrics; it runs on the request path.
	OnLogin func(service, result string)
	// Now returns the current time; nil is time.Now. For tests.
	Now func() time.Time
}

// Defaults of Config.
const (
	DefaultJWTAlgorithm           = "HS256"
	DefaultAccessTTL              = 24 * time.Hour
	DefaultRefreshTTL             = 7 * 24 * time.Hour
	DefaultRevocationPollInterval = time.Second
	DefaultLeeway                 = 5 * time.Second
	DefaultKeySetRefreshInterval  = time.Minute
	DefaultLoginAttemptsPerMinute = 30
	DefaultIssuer                 = "rolegate"
	DefaultTokenCacheSize         = 1 << 16
	// SessionLeeway is the clock skew tolerated on a session token's iat
	// and exp, so that a replica whose clock is a few seconds ahead does
	// not mint tokens the others refuse.
	SessionLeeway = 5 * time.Second
	// MinSecretLen is the shortest explicit JWTSecret accepted, in bytes.
	MinSecretLen = 32
	// MaxBodyBytes is the largest request body the login routes read.
	MaxBodyBytes = 64 << 10
)
