package authz

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/joho/godotenv"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/samples"
	"github.com/rolegate/rolegate/storage"
)

// Config is every setting of rolegate. DefaultConfig gives the documented
// defaults; ConfigFromEnv reads the environment and a .env file.
type Config struct {
	// DatabaseType is "sqlite" (default) or "postgresql". AUTH_DATABASE_TYPE.
	DatabaseType string
	// DatabaseURL overrides the other database settings; its scheme picks
	// the dialect (postgres://, sqlite://, file:). AUTH_DATABASE_URL.
	DatabaseURL string
	// PostgreSQLURL is used when DatabaseType is postgresql. AUTH_POSTGRESQL_URL.
	PostgreSQLURL string
	// SQLitePath is the SQLite file (default ~/.auth.sqlite3). AUTH_SQLITE_PATH.
	SQLitePath string

	// JWTSecretKey signs session tokens; empty means generate one and keep
	// it in the store. At least 32 bytes when set. AUTH_JWT_SECRET_KEY.
	JWTSecretKey string
	// JWTAlgorithm is HS256 (default), HS384 or HS512. AUTH_JWT_ALGORITHM.
	JWTAlgorithm string
	// JWTAccessTokenExpireMinutes is the session token lifetime (1440).
	JWTAccessTokenExpireMinutes int
	// JWTRefreshTokenExpireDays is the refresh token lifetime (7).
	JWTRefreshTokenExpireDays int

	// EnableEncryption stores permission names and members' user names
	// encrypted (false). AUTH_ENABLE_ENCRYPTION.
	EnableEncryption bool
	// EncryptionKey is the passphrase the keys derive from; required when
	// EnableEncryption is on. AUTH_ENCRYPTION_KEY.
	EncryptionKey string
	// EncryptDescriptions also encrypts role descriptions (false).
	// AUTH_ENCRYPT_DESCRIPTIONS.
	EncryptDescriptions bool

	// ServerHost and ServerPort are where the example host app listens
	// (127.0.0.1:8000). AUTH_SERVER_HOST, AUTH_SERVER_PORT.
	ServerHost string
	ServerPort int
	// DebugMode selects Gin's debug mode and debug-level logs (false).
	// AUTH_DEBUG_MODE.
	DebugMode bool
	// AllowCORS enables CORS on mounted routes (true). AUTH_ALLOW_CORS.
	AllowCORS bool
	// CORSOrigins are the allowed origins; "*" is any origin without
	// credentials (default "*"). AUTH_CORS_ORIGINS, comma-separated.
	CORSOrigins []string
	// EnableAuditLogging records every change and refusal (true).
	// AUTH_ENABLE_AUDIT_LOGGING.
	EnableAuditLogging bool
	// AuditRefusalsPerSecond bounds the refused requests recorded in the
	// audit log per second (bursts of twice that); the excess is counted
	// in the next record. Changes are always recorded. 0 means the
	// default (50). AUTH_AUDIT_REFUSALS_PER_SECOND.
	AuditRefusalsPerSecond int

	// ClientKey is the host app's own client key: guards check under it,
	// and a login's me.roles come from it. AUTH_CLIENT_KEY.
	ClientKey string
	// OAuthProviders are the identity providers accepted at login.
	// AUTH_OAUTH_PROVIDERS and AUTH_OAUTH_<NAME>_*.
	OAuthProviders []loginx.ProviderConfig
	// Samples holds the sample endpoints' credentials; they are mounted only
	// when all are set. AUTH_SAMPLES_USERNAME, _PASSWORD, _API_KEY.
	Samples samples.Config

	// CacheMaxUsers bounds the decision cache's entries (cached users plus
	// cached role permission sets) of all clients together; the least
	// recently used users go first (200000). AUTH_CACHE_MAX_USERS.
	CacheMaxUsers int
	// MaxClients bounds the client handles kept with their caches; the
	// least recently used go first (10000). AUTH_MAX_CLIENTS.
	MaxClients int
	// RevisionCheckInterval is how often the cache compares its revisions
	// with the store, catching changes whose notification was lost (1s).
	// AUTH_REVISION_CHECK_INTERVAL, a Go duration.
	RevisionCheckInterval time.Duration

	// Resolver finds the user of a guarded request. Nil: the login session
	// (Authorization: Bearer <authToken> or X-Auth-Token with X-User-Id).
	// Set it for apps with their own authentication.
	Resolver middleware.Resolver
	// listenerQuiet is how long the change listener waits for traffic
	// before it pings itself; zero means 30 s (tests shorten it).
	listenerQuiet time.Duration

	// Logger receives rolegate's logs; nil means slog.Default(). Never a
	// secret, a key or the plaintext of an encrypted name.
	Logger *slog.Logger
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		DatabaseType:                storage.TypeSQLite,
		SQLitePath:                  storage.DefaultSQLitePath,
		JWTAlgorithm:                "HS256",
		JWTAccessTokenExpireMinutes: 1440,
		JWTRefreshTokenExpireDays:   7,
		ServerHost:                  "127.0.0.1",
		ServerPort:                  8000,
		AllowCORS:                   true,
		CORSOrigins:                 []string{"*"},
		EnableAuditLogging:          true,
		AuditRefusalsPerSecond:      50,
		CacheMaxUsers:               200_000,
		MaxClients:                  10_000,
		RevisionCheckInterval:       time.Second,
	}
}

// ConfigFromEnv reads every setting from the environment and from a .env
// file in the working directory if there is one; the environment wins. It
// returns one error per bad setting, joined.
func ConfigFromEnv() (Config, error) {
	file, err := godotenv.Read()
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Config{}, fmt.Errorf("config: cannot read .env: %w", err)
	}
	return ConfigFromLookup(func(k string) string {
		if v, ok := os.LookupEnv(k); ok {
			return v
		}
		return file[k]
	})
}

// ConfigFromLookup is ConfigFromEnv over any source of variables.
func ConfigFromLookup(getenv func(string) string) (Config, error) {
	c := DefaultConfig()
	var errs []error
	str := func(key string, dst *string) {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			*dst = v
		}
	}
	boolean := func(key string, dst *bool) {
		v := strings.TrimSpace(getenv(key))
		if v == "" {
			return
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s=%q is not true or false", key, v))
			return
		}
		*dst = b
	}
	integer := func(key string, dst *int, min, max int) {
		v := strings.TrimSpace(getenv(key))
		if v == "" {
			return
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < min || n > max {
			errs = append(errs, fmt.Errorf("%s=%q is not a whole number from %d to %d", key, v, min, max))
			return
		}
		*dst = n
	}
	str("AUTH_DATABASE_TYPE", &c.DatabaseType)
	str("AUTH_DATABASE_URL", &c.DatabaseURL)
	str("AUTH_POSTGRESQL_URL", &c.PostgreSQLURL)
	str("AUTH_SQLITE_PATH", &c.SQLitePath)
	c.JWTSecretKey = getenv("AUTH_JWT_SECRET_KEY")
	str("AUTH_JWT_ALGORITHM", &c.JWTAlgorithm)
	integer("AUTH_JWT_ACCESS_TOKEN_EXPIRE_MINUTES", &c.JWTAccessTokenExpireMinutes, 1, 525600)
	integer("AUTH_JWT_REFRESH_TOKEN_EXPIRE_DAYS", &c.JWTRefreshTokenExpireDays, 1, 3650)
	boolean("AUTH_ENABLE_ENCRYPTION", &c.EnableEncryption)
	c.EncryptionKey = getenv("AUTH_ENCRYPTION_KEY")
	boolean("AUTH_ENCRYPT_DESCRIPTIONS", &c.EncryptDescriptions)
	str("AUTH_SERVER_HOST", &c.ServerHost)
	integer("AUTH_SERVER_PORT", &c.ServerPort, 0, 65535)
	boolean("AUTH_DEBUG_MODE", &c.DebugMode)
	boolean("AUTH_ALLOW_CORS", &c.AllowCORS)
	if v := strings.TrimSpace(getenv("AUTH_CORS_ORIGINS")); v != "" {
		c.CORSOrigins = splitList(v)
	}
	boolean("AUTH_ENABLE_AUDIT_LOGGING", &c.EnableAuditLogging)
	integer("AUTH_AUDIT_REFUSALS_PER_SECOND", &c.AuditRefusalsPerSecond, 1, 1_000_000)
	str("AUTH_CLIENT_KEY", &c.ClientKey)
	integer("AUTH_CACHE_MAX_USERS", &c.CacheMaxUsers, 1, 1<<30)
	integer("AUTH_MAX_CLIENTS", &c.MaxClients, 1, 1<<30)
	if v := strings.TrimSpace(getenv("AUTH_REVISION_CHECK_INTERVAL")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 10*time.Millisecond {
			errs = append(errs, fmt.Errorf("AUTH_REVISION_CHECK_INTERVAL=%q is not a duration of at least 10ms (like 1s)", v))
		} else {
			c.RevisionCheckInterval = d
		}
	}
	providers, err := loginx.ProvidersFromEnv(getenv)
	if err != nil {
		errs = append(errs, err)
	}
	c.OAuthProviders = providers
	c.Samples = samples.ConfigFromEnv(getenv)
	if err := errors.Join(errs...); err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	return c, nil
}

// Validate reports every bad setting, joined; Open calls it.
func (c Config) Validate() error {
	var errs []error
	switch strings.ToLower(c.DatabaseType) {
	case "", storage.TypeSQLite, "sqlite3", storage.TypePostgreSQL, "postgres":
	default:
		errs = append(errs, fmt.Errorf("AUTH_DATABASE_TYPE=%q is unknown (use sqlite or postgresql)", c.DatabaseType))
	}
	if c.EnableEncryption && c.EncryptionKey == "" {
		errs = append(errs, errors.New("AUTH_ENABLE_ENCRYPTION is on but AUTH_ENCRYPTION_KEY is not set"))
	}
	if c.EncryptDescriptions && !c.EnableEncryption {
		errs = append(errs, errors.New("AUTH_ENCRYPT_DESCRIPTIONS needs AUTH_ENABLE_ENCRYPTION=true"))
	}
	switch c.JWTAlgorithm {
	case "", "HS256", "HS384", "HS512":
	default:
		errs = append(errs, fmt.Errorf("AUTH_JWT_ALGORITHM=%q is not allowed (use HS256, HS384 or HS512)", c.JWTAlgorithm))
	}
	if c.JWTSecretKey != "" && len(c.JWTSecretKey) < 32 {
		errs = append(errs, errors.New("AUTH_JWT_SECRET_KEY is shorter than 32 bytes; use a longer random secret or leave it unset to have one generated"))
	}
	if c.ClientKey != "" {
		if _, err := middleware.ParseClientKey(c.ClientKey); err != nil {
			errs = append(errs, errors.New("AUTH_CLIENT_KEY is not a UUID version 4"))
		}
	}
	for _, o := range c.CORSOrigins {
		if o != "*" && !strings.HasPrefix(o, "http://") && !strings.HasPrefix(o, "https://") {
			errs = append(errs, fmt.Errorf("AUTH_CORS_ORIGINS entry %q is not * or an http(s) origin", o))
		}
	}
	if s := c.Samples; !s.Enabled() && (s.Username != "" || s.Password != "" || s.APIKey != "") {
		errs = append(errs, errors.New("the sample endpoints need all of AUTH_SAMPLES_USERNAME, AUTH_SAMPLES_PASSWORD and AUTH_SAMPLES_API_KEY, or none"))
	}
	if c.JWTAccessTokenExpireMinutes < 0 || c.JWTRefreshTokenExpireDays < 0 || c.CacheMaxUsers < 0 || c.MaxClients < 0 || c.AuditRefusalsPerSecond < 0 || c.RevisionCheckInterval < 0 {
		errs = append(errs, errors.New("durations and sizes must not be negative"))
	}
	return errors.Join(errs...)
}

func (c Config) storageConfig() storage.Config {
	return storage.Config{Type: c.DatabaseType, URL: c.DatabaseURL, PostgreSQLURL: c.PostgreSQLURL, SQLitePath: c.SQLitePath}
}

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
