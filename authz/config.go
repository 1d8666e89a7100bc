package authz

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/joho/godotenv"
	"github.com/uptrace/bun"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/rolegate/rolegate/authz/internal/audit"
	"github.com/rolegate/rolegate/authz/internal/clock"
	"github.com/rolegate/rolegate/authz/internal/expiry"
	"github.com/rolegate/rolegate/authz/internal/feed"
	"github.com/rolegate/rolegate/loginx/loginapi"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/samples"
	"github.com/rolegate/rolegate/storage"
)

// Config is every setting of rolegate. The zero value means the documented
// defaults (a field left at zero takes its default at Open; booleans are
// false by default, so a switch that is on by default is named Disable...).
// DefaultConfig spells the defaults out; ConfigFromEnv reads the
// environment and a .env file. Each setting's variable, default and parser
// are written once, in the settings table (envvars.go), which
// docs/configuration.md shows. Where the host app listens and Gin's mode
// are the host's own settings, not rolegate's (see examples/hostapp).
type Config struct {
	// DatabaseType is "sqlite" or "postgresql" (also "sqlite3" and
	// "postgres", in any letter case).
	DatabaseType string
	// DatabaseURL overrides the other database settings; its scheme picks
	// the dialect (postgres://, sqlite://, file:).
	DatabaseURL string
	// PostgreSQLURL is used when DatabaseType is postgresql.
	PostgreSQLURL string
	// SQLitePath is the SQLite file.
	SQLitePath string
	// PostgreSQLReadURL names a hot standby of the PostgreSQL primary
	// (postgres://...): cache fills and list reads go to it once it has
	// replayed the revision they need, else to the primary; writes,
	// migrations, locks, revision reads and LISTEN stay on the primary.
	// Empty: every read on the primary. See docs/replicas.md.
	PostgreSQLReadURL string
	// PostgreSQLReadWait is how long a read waits for the standby to
	// replay the revision it needs before it goes to the primary.
	PostgreSQLReadWait time.Duration

	// JWTSecretKey signs session tokens. At least 32 bytes when set.
	// Empty: one is generated and kept in the store sealed under the
	// encryption key (when encryption is on) or JWTSecretWrapKey; with
	// neither, a login configuration is refused.
	JWTSecretKey string
	// JWTSecretWrapKey seals the generated session secret at rest when
	// encryption is off (at least 32 bytes).
	JWTSecretWrapKey string
	// JWTAlgorithm is HS256, HS384 or HS512.
	JWTAlgorithm string
	// JWTAccessTokenExpireMinutes is the session token lifetime in minutes.
	JWTAccessTokenExpireMinutes int
	// JWTRefreshTokenExpireDays is the refresh token lifetime in days.
	JWTRefreshTokenExpireDays int

	// EnableEncryption stores permission names and members' user names
	// encrypted.
	EnableEncryption bool
	// EncryptionKey is the passphrase the keys derive from; required when
	// EnableEncryption is on.
	EncryptionKey string
	// EncryptionKeyPrevious is the key being
	// rotated away from: a store still under it is re-encrypted under
	// EncryptionKey in the background after Open returns (resumably, by one
	// process at a time), while the process serves with both keys; then
	// the key check value is EncryptionKey's and this setting can go.
	// Empty: no rotation.
	EncryptionKeyPrevious string
	// EncryptDescriptions also encrypts role descriptions.
	EncryptDescriptions bool

	// DisableCORS turns CORS off on mounted routes (CORS is on by default).
	DisableCORS bool
	// CORSOrigins are the allowed origins; "*" is any origin without
	// credentials.
	CORSOrigins []string
	// Console serves the admin console under <mount>/console/:
	// ConsoleAuto (the zero value) when admin keys are configured,
	// ConsoleOn or ConsoleOff.
	Console ConsoleMode
	// DisableAuditLogging stops recording changes and refusals in the
	// audit log (recording is on by default).
	DisableAuditLogging bool
	// AuditRefusalsPerSecond bounds the refused requests recorded in the
	// audit log per second (bursts of twice that); the excess is counted
	// in the next record. Changes are always recorded.
	AuditRefusalsPerSecond int

	// ClientKey is the host app's own client key: guards check under it,
	// and a login's me.roles come from it.
	ClientKey string
	// ClientKeys are further admin keys (UUID v4) accepted on the REST
	// admin API beside ClientKey. When ClientKey or ClientKeys is set, the
	// REST API accepts those keys only (a closed admin plane); with
	// neither, any UUID v4 is a namespace of its own (open mode, bounded
	// by MaxRowsPerClient and MaxNamespaces). The library API (Client) is
	// the host's own code and takes any key either way.
	ClientKeys []string
	// MaxRowsPerClient bounds the rows (roles, grants, memberships) of one
	// namespace in open mode; a write over it is refused with 507.
	MaxRowsPerClient int
	// MaxBytesPerClient bounds the bytes of text (names and descriptions,
	// as stored) of one namespace in open mode; a write over it is refused
	// with 507. Rows alone let 9,990 roles of long names and descriptions
	// take 62 MB of SQLite per key.
	MaxBytesPerClient int
	// MaxNamespaces bounds the namespaces that may hold data in open mode;
	// a first write of one more is refused with 507.
	MaxNamespaces int
	// MaxInheritanceDepth bounds the longest chain of inheritances above a
	// role; an inheritance that would pass it, for the role or a role
	// inheriting from it, is refused with 422 (ErrShapeLimit).
	MaxInheritanceDepth int
	// MaxRoleAncestors bounds the roles a role inherits from, directly or
	// not; an inheritance that would pass it is refused with 422
	// (ErrShapeLimit).
	MaxRoleAncestors int
	// OpenWritesPerSecond bounds the writes of one client in open mode
	// (a batch is one write), in bursts of twice that; a write over it is
	// refused with ErrRateLimited (HTTP 429 with Retry-After).
	OpenWritesPerSecond int
	// MaxReadsInFlight bounds the store-reading REST requests of one
	// client running at once in open mode; one more waits up to 100 ms
	// for one of them to end, then is refused with 429 and Retry-After, so
	// that one client cannot starve another.
	MaxReadsInFlight int
	// MaxReadsRunning bounds the store-reading REST requests of all
	// clients running at once in open mode (zero: half the CPUs that
	// runtime.GOMAXPROCS says, at least one). One more waits, at most a second, for the
	// next free slot, which goes to the waiting client with the fewest
	// running; past that it is refused with 429. With MaxReadsInFlight
	// alone, twenty clients could run twenty times as much as one.
	MaxReadsRunning int
	// AuditRetention is how long audit records are kept; older ones are
	// deleted in the background.
	AuditRetention time.Duration
	// ChangesRetention is how long the change feed (Client.Changes, GET
	// /api/changes) keeps each change; older ones are deleted in the
	// background, and a reader asking for changes after a revision older
	// than what is kept gets ErrChangesGone.
	ChangesRetention time.Duration
	// AuditMaxRecords bounds the audit records kept; beyond it records are
	// deleted in the background, shared fairly between clients: the
	// clients holding the most lose their oldest (refusals and no-op
	// writes before changes), and a client at or below the fair share
	// loses none (see storage.PlanAuditPrune).
	AuditMaxRecords int
	// TrustedProxies are the IP addresses and CIDR ranges of the reverse
	// proxies in front of the app. X-Forwarded-For and X-Real-IP are
	// believed (for the address in audit records) only from these; empty
	// (the default) records the socket address. The host should give the
	// same list to gin's engine.SetTrustedProxies.
	TrustedProxies []string
	// auditPruneEvery is how often the audit retention runs; zero means
	// every 10 minutes (tests shorten it).
	auditPruneEvery time.Duration
	// DefaultRole, when set, is a role every user the guards see holds
	// under the host client: Open creates it, and each user the guards'
	// resolver finds is added to it on first sight. Needs ClientKey.
	DefaultRole string
	// AdminUsers lets the host's own users on the admin plane
	// (AUTH_ADMIN_USERS): a REST request (or the console's) without a
	// client key is authorised through the user the guards see
	// (Resolver, or the login session) against PermAdmin, PermRead and
	// PermMembers held in ClientKey's namespace, and reaches that
	// namespace only. Requests with a key are unchanged. A header
	// resolver is only as safe as the proxy that sets the header. Needs
	// ClientKey and a way to find the user.
	AdminUsers bool
	// OAuthProviders are the identity providers accepted at login (from
	// the environment: loginapi.ProvidersFromEnv). They need Login.
	OAuthProviders []loginapi.ProviderConfig
	// Login starts the token-exchange login when OAuthProviders are set:
	// loginx.Start. It is the host's to set so that a host without login
	// links none of it (OIDC, JOSE, OAuth 2); providers without it fail
	// Open with a message that says so.
	Login func(ctx context.Context, db *bun.DB, cfg loginapi.Config) (loginapi.Login, error)
	// LoginAttemptsPerMinute bounds login attempts per remote address
	// (bursts of that many, refilled at that rate; more get 429). 0: the
	// default (loginapi.DefaultLoginAttemptsPerMinute); negative: no limit
	// (0 in the environment turns the limit off).
	LoginAttemptsPerMinute int
	// LoginCookie makes a successful login also set its session as an
	// HttpOnly, SameSite=Strict cookie (Secure over TLS, or behind a
	// trusted proxy that says https), scoped to the mount, cleared on
	// logout; the guards, the admin plane and the console then accept it
	// like the Bearer authToken, and a write it authenticates must come
	// from the same origin (see docs/login.md). AUTH_LOGIN_COOKIE.
	LoginCookie bool
	// Samples holds the sample endpoints' credentials; they are mounted only
	// when all are set (from the environment: samples.ConfigFromEnv).
	Samples samples.Config

	// CacheMaxUsers bounds the decision cache's entries (cached users plus
	// cached role permission sets) of all clients together; the least
	// recently used users go first.
	CacheMaxUsers int
	// CacheMaxBytes bounds the decision cache's memory, of all clients
	// together, counted from the names its entries hold plus a fixed
	// overhead per entry; past it the clients holding the most lose their
	// least recently used users first.
	CacheMaxBytes int
	// MaxClients bounds the client handles kept with their caches; the
	// least recently used go first.
	MaxClients int
	// RevisionCheckInterval is how often the cache compares its revisions
	// with the store, catching changes whose notification was lost.
	RevisionCheckInterval time.Duration
	// LivenessTimeout bounds how long a connection may leave rolegate
	// without an answer before it is taken for lost: the revision check
	// (past it every cache is flushed, so that with a stalled store the
	// cache answers for at most RevisionCheckInterval plus this, and
	// guards then fail closed), the change listener's own ping (past it
	// the listener reconnects) and each round trip to the read replica
	// (past it the read goes to the primary).
	LivenessTimeout time.Duration
	// Consistency is "" (ConsistencyDefault: checks answer from the cache,
	// which other replicas' changes reach within the window stated in
	// docs/replicas.md) or "strict" (ConsistencyStrict: every check first
	// confirms, with one read of the client's revision, that the cache is
	// current, catching up when it is not).
	Consistency string

	// Resolver finds the user of a guarded request. Nil: the login session
	// (Authorization: Bearer <authToken> or X-Auth-Token with X-User-Id).
	// Set it for apps with their own authentication.
	Resolver middleware.Resolver
	// OnRefusal, when set, writes every guard's 401, 403 and 503 bodies in
	// the host's own error shape (rolegate still decides the status); a
	// guard's own OnRefusal option overrides it. Nil: the error envelope.
	OnRefusal middleware.RefusalFunc
	// unknownVars are the AUTH_ variables ConfigFromEnv saw that no setting
	// reads; Open warns about them.
	unknownVars []string
	// listenerQuiet is how long the change listener waits for traffic
	// before it pings itself; zero means 30 s (tests shorten it).
	listenerQuiet time.Duration
	// clock is the time memberships' and grants' bounds are counted by;
	// nil means the system clock (tests set a fake one).
	clock clock.Clock
	// changesPruneEvery is how often the change feed's retention runs;
	// zero means feed.DefaultPruneEvery.
	changesPruneEvery time.Duration
	// expiryEvery is how often expired memberships and grants are
	// removed; zero means expiry.DefaultEvery (tests shorten it).
	expiryEvery time.Duration

	// TracerProvider receives rolegate's spans: one per request on the
	// mounted routes, per cold check and per write, with the store's round
	// trips inside (see the README, Tracing). Nil: no tracing.
	TracerProvider trace.TracerProvider
	// TextMapPropagator reads the incoming trace headers of a request
	// that has no span yet, making its span a child of the caller's:
	// otel.GetTextMapPropagator() to follow the global one, or
	// propagation.TraceContext{}. Nil: none are read. (rolegate does not
	// read otel's global itself: that package would link logr and otel's
	// metric API into every host.)
	TextMapPropagator propagation.TextMapPropagator
	// TraceUserNames adds the user a check, a membership write or a REST
	// request is about to its span (rolegate.user); off by default, since
	// user names are personal data and traces often leave the host.
	TraceUserNames bool
	// pingCache is how long GET /ping reuses its store probe; zero means
	// 1 s, negative means no reuse (tests).
	pingCache time.Duration

	// Logger receives rolegate's logs; nil means slog.Default(). Never a
	// secret, a key or the plaintext of an encrypted name.
	Logger *slog.Logger

	// Observer, when set, receives rolegate's metrics (rolegate_*):
	// prommetrics.New(reg) from package authz/prommetrics for Prometheus.
	// Nil: no metrics, and no metrics library linked. See metrics.go and
	// the README's Observability section.
	Observer Observer
	// EnableMetrics serves GET /metrics on the mount: the Observer's
	// metrics (prommetrics.New(nil): a registry of rolegate's own). It
	// needs an Observer: without one, Open fails. On a closed admin plane
	// it takes an admin key (Authorization: Bearer).
	EnableMetrics bool
	// DecisionLog logs guard decisions as Info records: "denied" (every
	// refusal: 403, 401, 503), "all" (allowed ones too) or "off".
	DecisionLog string
	// DecisionLogSample is the share of those decisions logged, from
	// above 0 to 1.
	DecisionLogSample float64
	// DecisionLogPerSecond bounds the decision log records written per
	// second of each outcome (bursts of twice that): anybody can send
	// requests that a guard refuses. The excess is counted
	// (rolegate_decision_log_dropped_total, and dropped_before on the next
	// record) and a warning logged at most every 10 s.
	DecisionLogPerSecond int
	// DecisionAudit "denied" also records the guards' 403s in the audit
	// log, within AuditRefusalsPerSecond; "off" does not.
	DecisionAudit string
}

// DefaultConfig returns the documented defaults (see the settings table
// in envvars.go).
func DefaultConfig() Config {
	var c Config
	fillDefaults(&c)
	return c
}

// withDefaults fills every zero field with its default.
func (c Config) withDefaults() Config {
	fillDefaults(&c)
	orDefault(&c.auditPruneEvery, audit.DefaultPruneEvery)
	orDefault(&c.expiryEvery, expiry.DefaultEvery)
	orDefault(&c.changesPruneEvery, feed.DefaultPruneEvery)
	c.clock = clock.Or(c.clock)
	orDefault(&c.pingCache, time.Second)
	return c
}

// orDefault puts def in place of a zero *v.
func orDefault[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}

// ConfigFromEnv reads every setting from the environment and from a .env
// file in the working directory if there is one; the environment wins.
// Every bad setting, whether it does not parse or does not validate, is
// in the one error it returns (a *ConfigError). AUTH_ variables that no
// setting reads are remembered, and Open warns about them (a misspelled
// name would otherwise be silently ignored).
func ConfigFromEnv() (Config, error) {
	file, err := godotenv.Read()
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Config{}, &ConfigError{Problems: []error{fmt.Errorf("cannot read .env: %w", err)}}
	}
	c, err := ConfigFromLookup(func(k string) string {
		if v, ok := os.LookupEnv(k); ok {
			return v
		}
		return file[k]
	})
	names := make([]string, 0, len(file))
	for k := range file {
		names = append(names, k)
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		names = append(names, k)
	}
	c.unknownVars = unknownVariables(names)
	return c, err
}

// ConfigFromLookup is ConfigFromEnv over any source of variables. It
// returns every problem at once: the settings that do not parse and what
// Validate finds in the rest.
func ConfigFromLookup(getenv func(string) string) (Config, error) {
	c := DefaultConfig()
	errs := readSettings(&c, getenv)
	providers, err := loginapi.ProvidersFromEnv(getenv)
	if err != nil {
		errs = append(errs, err)
	}
	c.OAuthProviders = providers
	c.Samples = samples.ConfigFromEnv(getenv)
	errs = append(errs, c.problems()...)
	if len(errs) > 0 {
		return c, &ConfigError{Problems: errs}
	}
	return c, nil
}

// Validate reports every bad setting at once, as a *ConfigError; Open
// calls it.
func (c Config) Validate() error {
	if errs := c.problems(); len(errs) > 0 {
		return &ConfigError{Problems: errs}
	}
	return nil
}

func (c Config) problems() []error {
	// The storage settings first, so that a PostgreSQL type without a URL
	// is reported with the rest instead of after them, at Open.
	errs := c.storageConfig().Problems()
	if c.EnableEncryption && c.EncryptionKey == "" {
		errs = append(errs, errors.New("AUTH_ENABLE_ENCRYPTION is on but AUTH_ENCRYPTION_KEY is not set"))
	}
	if c.EncryptDescriptions && !c.EnableEncryption {
		errs = append(errs, errors.New("AUTH_ENCRYPT_DESCRIPTIONS needs AUTH_ENABLE_ENCRYPTION=true"))
	}
	if c.EncryptionKeyPrevious != "" && !c.EnableEncryption {
		errs = append(errs, errors.New("AUTH_ENCRYPTION_KEY_PREVIOUS needs AUTH_ENABLE_ENCRYPTION=true and the new AUTH_ENCRYPTION_KEY"))
	}
	switch c.JWTAlgorithm {
	case "", "HS256", "HS384", "HS512":
	default:
		errs = append(errs, fmt.Errorf("AUTH_JWT_ALGORITHM=%q is not allowed (use HS256, HS384 or HS512)", c.JWTAlgorithm))
	}
	if c.JWTSecretKey != "" && len(c.JWTSecretKey) < 32 {
		errs = append(errs, errors.New("AUTH_JWT_SECRET_KEY is shorter than 32 bytes; use a longer random secret, or leave it unset and set AUTH_JWT_SECRET_WRAP_KEY (or enable encryption) to have one generated and kept sealed"))
	}
	if c.JWTSecretWrapKey != "" && len(c.JWTSecretWrapKey) < 32 {
		errs = append(errs, errors.New("AUTH_JWT_SECRET_WRAP_KEY is shorter than 32 bytes; use a longer random key"))
	}
	if c.ClientKey != "" {
		if _, err := middleware.ParseClientKey(c.ClientKey); err != nil {
			errs = append(errs, errors.New("AUTH_CLIENT_KEY is not a UUID version 4"))
		}
	}
	for i, k := range c.ClientKeys {
		if _, err := middleware.ParseClientKey(k); err != nil {
			errs = append(errs, fmt.Errorf("AUTH_CLIENT_KEYS entry %d is not a UUID version 4", i+1))
		}
	}
	if _, err := middleware.ParseTrustedProxies(c.TrustedProxies); err != nil {
		errs = append(errs, fmt.Errorf("AUTH_TRUSTED_PROXIES: %w", err))
	}
	if c.DefaultRole != "" {
		if !ValidName(c.DefaultRole) {
			errs = append(errs, fmt.Errorf("AUTH_DEFAULT_ROLE=%q is not a valid role name", c.DefaultRole))
		}
		if c.ClientKey == "" {
			errs = append(errs, errors.New("AUTH_DEFAULT_ROLE needs AUTH_CLIENT_KEY (the host client the role lives in)"))
		}
	}
	if c.AdminUsers && c.ClientKey == "" {
		errs = append(errs, errors.New("AUTH_ADMIN_USERS needs AUTH_CLIENT_KEY (the host's namespace, where the admin permissions are held)"))
	}
	for _, o := range c.CORSOrigins {
		if o != "*" && !strings.HasPrefix(o, "http://") && !strings.HasPrefix(o, "https://") {
			errs = append(errs, fmt.Errorf("AUTH_CORS_ORIGINS entry %q is not * or an http(s) origin", o))
		}
	}
	if s := c.Samples; !s.Enabled() && (s.Username != "" || s.Password != "" || s.APIKey != "") {
		errs = append(errs, errors.New("the sample endpoints need all of AUTH_SAMPLES_USERNAME, AUTH_SAMPLES_PASSWORD and AUTH_SAMPLES_API_KEY, or none"))
	}
	errs = append(errs, c.observabilityProblems()...)
	errs = append(errs, c.consistencyProblems()...)
	if c.PostgreSQLReadURL != "" {
		if u, err := url.Parse(c.PostgreSQLReadURL); err != nil || (!strings.EqualFold(u.Scheme, "postgres") && !strings.EqualFold(u.Scheme, "postgresql")) {
			errs = append(errs, errors.New("AUTH_POSTGRESQL_READ_URL is not a postgres:// URL"))
		}
	}
	if c.JWTAccessTokenExpireMinutes < 0 || c.JWTRefreshTokenExpireDays < 0 || c.CacheMaxUsers < 0 || c.CacheMaxBytes < 0 || c.MaxClients < 0 || c.AuditRefusalsPerSecond < 0 || c.RevisionCheckInterval < 0 || c.LivenessTimeout < 0 || c.PostgreSQLReadWait < 0 ||
		c.MaxRowsPerClient < 0 || c.MaxBytesPerClient < 0 || c.MaxNamespaces < 0 || c.MaxInheritanceDepth < 0 || c.MaxRoleAncestors < 0 || c.OpenWritesPerSecond < 0 || c.MaxReadsInFlight < 0 || c.MaxReadsRunning < 0 || c.AuditRetention < 0 || c.ChangesRetention < 0 || c.AuditMaxRecords < 0 || c.DecisionLogPerSecond < 0 {
		errs = append(errs, errors.New("durations and sizes must not be negative"))
	}
	return errs
}

// ConfigError is every problem of a configuration, reported at once and
// on one line: "authz: configuration: <problem>; <problem>".
type ConfigError struct {
	Problems []error
}

func (e *ConfigError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.Error()
	}
	return "authz: configuration: " + strings.Join(parts, "; ")
}

// Unwrap lets errors.Is and errors.As see each problem.
func (e *ConfigError) Unwrap() []error { return e.Problems }

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
