package authz

//go:generate go test -run ^(TestSettingsDoc|TestLibraryDocMethods)$ -update .

import (
	"fmt"
	"log/slog"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/rolegate/rolegate/loginx/loginapi"
	"github.com/rolegate/rolegate/samples"
	"github.com/rolegate/rolegate/storage"
)

// settings is the one table of rolegate's environment settings: each
// variable's name, default, parser (into Config) and one-line doc are
// written here and nowhere else. From it come ConfigFromLookup's parsing,
// DefaultConfig and Config.withDefaults, the unknown-variable warning and
// the table of docs/configuration.md (TestSettingsDoc keeps the page equal
// to it; `go generate ./authz` rewrites the page's block). Links in a
// setting's doc are relative to docs/.
//
// To add a setting: add its Config field (with a doc comment), then one
// row here built with the constructor of its kind (text, secret, boolean,
// flagOff, number, duration, list, fraction; custom for anything else;
// readElsewhere for variables another package reads), in the place
// where the table should show it; then run `go generate ./authz`. Checks
// that span several settings go in Config.problems.
var settings = []setting{
	text("AUTH_DATABASE_TYPE", func(c *Config) *string { return &c.DatabaseType }, storage.TypeSQLite,
		"`sqlite` or `postgresql` (also spelt `sqlite3`, `postgres`; any letter case)"),
	text("AUTH_DATABASE_URL", func(c *Config) *string { return &c.DatabaseURL }, "",
		"overrides the rest; `postgres://...`, `sqlite://path` or `file:path` (SQLite paths percent-decoded, query ignored)"),
	text("AUTH_POSTGRESQL_URL", func(c *Config) *string { return &c.PostgreSQLURL }, "",
		"PostgreSQL URL when the type is postgresql"),
	text("AUTH_POSTGRESQL_READ_URL", func(c *Config) *string { return &c.PostgreSQLReadURL }, "",
		"a hot standby of the PostgreSQL primary: cache fills and list reads go to it once it has replayed the revision they need, else to the primary; writes, locks and LISTEN stay on the primary (see [replicas.md](replicas.md#read-replicas))"),
	duration("AUTH_POSTGRESQL_READ_WAIT", func(c *Config) *time.Duration { return &c.PostgreSQLReadWait }, 20*time.Millisecond, time.Millisecond,
		"how long a read waits for the standby to replay what it needs before it reads the primary (once: a standby seen behind for longer is not waited for)"),
	text("AUTH_SQLITE_PATH", func(c *Config) *string { return &c.SQLitePath }, storage.DefaultSQLitePath,
		"SQLite file, created 0600 with its `-wal`/`-shm` (a folder it creates is 0700)"),
	secret("AUTH_JWT_SECRET_KEY", func(c *Config) *string { return &c.JWTSecretKey },
		"session token secret, at least 32 bytes; unset, the generated one is sealed under the encryption key or AUTH_JWT_SECRET_WRAP_KEY (one of them is then required)").
		showing("generated, kept sealed in the store"),
	secret("AUTH_JWT_SECRET_WRAP_KEY", func(c *Config) *string { return &c.JWTSecretWrapKey },
		"key (at least 32 bytes) sealing the generated session secret when encryption is off; the same on every replica"),
	text("AUTH_JWT_ALGORITHM", func(c *Config) *string { return &c.JWTAlgorithm }, "HS256",
		"HS256, HS384 or HS512"),
	number("AUTH_JWT_ACCESS_TOKEN_EXPIRE_MINUTES", func(c *Config) *int { return &c.JWTAccessTokenExpireMinutes }, 1440, 1, 525600,
		"session token lifetime"),
	number("AUTH_JWT_REFRESH_TOKEN_EXPIRE_DAYS", func(c *Config) *int { return &c.JWTRefreshTokenExpireDays }, 7, 1, 3650,
		"refresh token lifetime"),
	boolean("AUTH_ENABLE_ENCRYPTION", func(c *Config) *bool { return &c.EnableEncryption },
		"store permission names and members' user names encrypted"),
	secret("AUTH_ENCRYPTION_KEY", func(c *Config) *string { return &c.EncryptionKey },
		"passphrase, required with encryption; at least 16 characters"),
	secret("AUTH_ENCRYPTION_KEY_PREVIOUS", func(c *Config) *string { return &c.EncryptionKeyPrevious },
		"the key being rotated away from: the store is re-encrypted under AUTH_ENCRYPTION_KEY in the background while serving (see [encryption.md](encryption.md))"),
	boolean("AUTH_ENCRYPT_DESCRIPTIONS", func(c *Config) *bool { return &c.EncryptDescriptions },
		"also encrypt role descriptions"),
	readElsewhere("AUTH_SERVER_HOST", "127.0.0.1",
		"listen address of `examples/hostapp` (a host-app setting, not in `authz.Config`)"),
	readElsewhere("AUTH_SERVER_PORT", "8000",
		"port of `examples/hostapp` and `examples/minimal` (host-app setting)"),
	readElsewhere("AUTH_DEBUG_MODE", "false",
		"Gin debug mode and debug logs in `examples/hostapp` (host-app setting)"),
	flagOff("AUTH_ALLOW_CORS", func(c *Config) *bool { return &c.DisableCORS },
		"CORS on rolegate's routes (`false` sets `Config.DisableCORS`)"),
	list("AUTH_CORS_ORIGINS", func(c *Config) *[]string { return &c.CORSOrigins }, []string{"*"},
		"comma-separated; `*` allows any origin without credentials"),
	flagOff("AUTH_ENABLE_AUDIT_LOGGING", func(c *Config) *bool { return &c.DisableAuditLogging },
		"audit every change and refusal (`false` sets `Config.DisableAuditLogging`)"),
	custom("AUTH_ENABLE_CONSOLE", "on when admin keys are set",
		"serve the [admin console](../README.md#admin-console) under `<mount>/console/` (`true`/`false` set `Config.Console` to `authz.ConsoleOn`/`ConsoleOff`; unset is `ConsoleAuto`: on with AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS, off in open mode)",
		func(c *Config, key, v string) error {
			on, err := parseFlag(key, v)
			if err == nil {
				c.Console = map[bool]ConsoleMode{true: ConsoleOn, false: ConsoleOff}[on]
			}
			return err
		}),
	number("AUTH_AUDIT_REFUSALS_PER_SECOND", func(c *Config) *int { return &c.AuditRefusalsPerSecond }, 50, 1, 1_000_000,
		"refused requests recorded per second per client (bursts of twice that; every request without an accepted key shares one budget; at most ten budgets' worth in all); the excess is counted in that client's next record and logged; changes are always recorded"),
	duration("AUTH_AUDIT_RETENTION", func(c *Config) *time.Duration { return &c.AuditRetention }, 90*24*time.Hour, time.Minute,
		"audit records older than this are deleted in the background (a Go duration, at least 1m)"),
	duration("AUTH_CHANGES_RETENTION", func(c *Config) *time.Duration { return &c.ChangesRetention }, 7*24*time.Hour, time.Minute,
		"the change feed (`GET /api/changes`) keeps each change this long, then deletes it in the background (a Go duration, at least 1m); a reader further behind gets 410 and resyncs from a backup"),
	number("AUTH_AUDIT_MAX_RECORDS", func(c *Config) *int { return &c.AuditMaxRecords }, 1_000_000, 1, 1<<40,
		"audit records beyond this many are deleted in the background, shared fairly between clients: the clients holding the most lose their oldest (each client's refusals and no-op writes before its changes); a client at or below its fair share loses none (see [security.md](security.md))"),
	text("AUTH_CLIENT_KEY", func(c *Config) *string { return &c.ClientKey }, "",
		"the host app's own client key (guards, `me.roles`; the `az.Require…` guards and `az.HostClient()` need it); also an admin key of the REST API"),
	list("AUTH_CLIENT_KEYS", func(c *Config) *[]string { return &c.ClientKeys }, nil,
		"further admin keys (comma-separated UUID v4). With this or AUTH_CLIENT_KEY set, the REST API accepts only those keys; see [security.md](security.md)"),
	number("AUTH_MAX_ROWS_PER_CLIENT", func(c *Config) *int { return &c.MaxRowsPerClient }, 10_000, 1, 1<<30,
		"open mode only (no admin keys): rows (roles, grants, memberships) per namespace; a write past it is 507"),
	number("AUTH_MAX_BYTES_PER_CLIENT", func(c *Config) *int { return &c.MaxBytesPerClient }, 2<<20, 1024, 1<<40,
		"open mode only: bytes of names and descriptions (as stored) per namespace; a write past it is 507"),
	number("AUTH_MAX_NAMESPACES", func(c *Config) *int { return &c.MaxNamespaces }, 100, 1, 1<<30,
		"open mode only: namespaces that may hold data; the first write of one more is 507"),
	number("AUTH_MAX_INHERITANCE_DEPTH", func(c *Config) *int { return &c.MaxInheritanceDepth }, 32, 1, 1<<20,
		"longest chain of inheritances above a role; an inheritance past it (for the role or one inheriting from it) is 422"),
	number("AUTH_MAX_ROLE_ANCESTORS", func(c *Config) *int { return &c.MaxRoleAncestors }, 256, 1, 1<<20,
		"roles a role inherits from, directly or not; an inheritance past it is 422"),
	number("AUTH_OPEN_WRITES_PER_SECOND", func(c *Config) *int { return &c.OpenWritesPerSecond }, 50, 1, 1_000_000,
		"open mode only: writes per client and second (a batch is one write; bursts of twice that); a write past it is 429 with `Retry-After`, `ErrRateLimited` in the library"),
	number("AUTH_MAX_READS_IN_FLIGHT", func(c *Config) *int { return &c.MaxReadsInFlight }, 4, 1, 1<<20,
		"open mode only: store-reading REST requests per client running at once; one more waits up to 100 ms for one of them to end, then is 429 with `Retry-After`"),
	custom("AUTH_MAX_READS_RUNNING", "half the CPUs",
		"open mode only: store-reading REST requests of all clients running at once (default: half of GOMAXPROCS, at least 1); one more waits (at most 1 s, then 429) for the next free slot, which goes to the waiting client with the fewest requests in flight, then the least use of the slots lately; one request more may run at once, of a client with nothing running whose use lately is below that of every client holding a slot, or whose requests are a quarter as long as theirs (the light lane: a short read does not wait for another client's long ones)",
		func(c *Config, key, v string) error {
			n, err := parseNumber(key, v, 1, 1<<20)
			if err == nil {
				c.MaxReadsRunning = n
			}
			return err
		}),
	list("AUTH_TRUSTED_PROXIES", func(c *Config) *[]string { return &c.TrustedProxies }, nil,
		"comma-separated IPs or CIDR ranges of your reverse proxies; only from these are `X-Forwarded-For` / `X-Real-IP` believed for the audit's remote address (hostapp gives the list to Gin too)").
		showing("none"),
	text("AUTH_DEFAULT_ROLE", func(c *Config) *string { return &c.DefaultRole }, "",
		"a role every user the guards see holds (created at Open, added on first sight); needs AUTH_CLIENT_KEY"),
	boolean("AUTH_ADMIN_USERS", func(c *Config) *bool { return &c.AdminUsers },
		"let the host's own users use the admin API and console without a key, by `rolegate.admin`, `rolegate.read` and `rolegate.members` held in AUTH_CLIENT_KEY's namespace (see [security.md](security.md#people-on-the-admin-plane)); needs AUTH_CLIENT_KEY and a resolver or login"),
	readElsewhere("AUTH_OAUTH_PROVIDERS", "",
		"comma-separated provider names accepted at login (needs `Config.Login = loginx.Start`, else Open fails; see [login.md](login.md))"),
	readElsewhere("AUTH_OAUTH_<NAME>_ISSUER / _CLIENT_ID / _JWKS_URL / _USERINFO_URL", "",
		"per provider: issuer, accepted audiences (comma-separated), optional overrides of discovery").
		matching("AUTH_OAUTH_*_ISSUER", "AUTH_OAUTH_*_CLIENT_ID", "AUTH_OAUTH_*_JWKS_URL", "AUTH_OAUTH_*_USERINFO_URL"),
	custom("AUTH_LOGIN_ATTEMPTS_PER_MINUTE", strconv.Itoa(loginapi.DefaultLoginAttemptsPerMinute),
		"login attempts per remote address and minute (bursts of as many); 429 past it; 0 turns it off",
		func(c *Config, key, v string) error {
			n, err := parseNumber(key, v, 0, 1_000_000)
			if err != nil {
				return err
			}
			if n == 0 {
				n = -1 // off; Config's zero means the default
			}
			c.LoginAttemptsPerMinute = n
			return nil
		}),
	boolean("AUTH_LOGIN_COOKIE", func(c *Config) *bool { return &c.LoginCookie },
		"a login also sets its session as an HttpOnly, SameSite=Strict cookie (Secure over TLS) for the routes under the mount, cleared on logout; writes it authenticates must come from the same origin (see [login.md](login.md#the-session-cookie))"),
	readElsewhere("AUTH_OAUTH_<NAME>_USER_CLAIM", "(provider:subject)",
		"verified ID token claim that becomes a new user's RBAC name, e.g. `email` (see [login.md](login.md))").
		matching("AUTH_OAUTH_*_USER_CLAIM"),
	readElsewhere("AUTH_SAMPLES_USERNAME / _PASSWORD / _API_KEY", "",
		"sample endpoints' credentials; all or none").
		matching(samples.EnvUsername, samples.EnvPassword, samples.EnvAPIKey),
	readElsewhere("AUTH_SAMPLES_NAME / _EMAIL", samples.DefaultName+" / "+samples.DefaultEmail,
		"what `GET /api/test` answers").
		matching(samples.EnvName, samples.EnvEmail),
	number("AUTH_CACHE_MAX_USERS", func(c *Config) *int { return &c.CacheMaxUsers }, 200_000, 1, 1<<30,
		"decision cache entries (users plus role permission sets) of all clients together (least recently used users go first)"),
	number("AUTH_CACHE_MAX_BYTES", func(c *Config) *int { return &c.CacheMaxBytes }, 256<<20, 1<<20, 1<<50,
		"decision cache memory of all clients together, counted from the names entries hold (roles with equal sets share one); past it the clients holding the most lose their least recently used users first"),
	number("AUTH_MAX_CLIENTS", func(c *Config) *int { return &c.MaxClients }, 10_000, 1, 1<<30,
		"client keys kept with their caches (least recently used go first; a dropped key still works, uncached)"),
	duration("AUTH_REVISION_CHECK_INTERVAL", func(c *Config) *time.Duration { return &c.RevisionCheckInterval }, time.Second, 10*time.Millisecond,
		"how often the cache compares revisions with the store"),
	duration("AUTH_LIVENESS_TIMEOUT", func(c *Config) *time.Duration { return &c.LivenessTimeout }, time.Second, 10*time.Millisecond,
		"how long the revision check, the change listener's own ping and each round trip to the read replica may go unanswered: past it every cache is flushed (a stalled store's cached answers end within AUTH_REVISION_CHECK_INTERVAL plus this, then guards fail closed; see [replicas.md](replicas.md#a-stalled-store)), the listener reconnects, the replica's reads go to the primary"),
	custom("AUTH_CONSISTENCY", "default",
		"`strict`: every check (guards, `UserHasPermission`, has_permission) first reads the client's revision (one indexed read) and catches up when the cache is behind, so no replica allows once a revoke returned; `default` answers from the cache alone, which another replica's change reaches through the listener within milliseconds on a machine with cores to spare, within hundreds on an overloaded one (measured in [replicas.md](replicas.md#how-stale-can-another-replica-be))",
		parseConsistency),
	boolean("AUTH_ENABLE_METRICS", func(c *Config) *bool { return &c.EnableMetrics },
		"serve `GET /metrics` on the mount (Prometheus: needs `Config.Observer = prommetrics.New(...)`, else Open fails; an admin key on a closed admin plane); see [observability.md](observability.md)"),
	text("AUTH_DECISION_LOG", func(c *Config) *string { return &c.DecisionLog }, decisionOff,
		"log guard decisions: `denied` (every 403, 401 and 503), `all` (allowed ones too) or `off`"),
	fraction("AUTH_DECISION_LOG_SAMPLE", func(c *Config) *float64 { return &c.DecisionLogSample }, 1, "0.1",
		"share of those decisions logged, above 0 and at most 1 (`0.01`: one in a hundred, at random)"),
	number("AUTH_DECISION_LOG_PER_SECOND", func(c *Config) *int { return &c.DecisionLogPerSecond }, 100, 1, 1_000_000,
		"most decision log records written per second per outcome (bursts of twice that), after sampling; the excess is counted in `rolegate_decision_log_dropped_total` and in the next record's `dropped_before`, and warned about at most every 10 s"),
	text("AUTH_DECISION_AUDIT", func(c *Config) *string { return &c.DecisionAudit }, decisionOff,
		"`denied`: also record the guards' 403s in the audit log, within AUTH_AUDIT_REFUSALS_PER_SECOND"),
	boolean("AUTH_TRACE_USER_NAMES", func(c *Config) *bool { return &c.TraceUserNames },
		"put the user a check, a membership write or a REST request is about into its span (`rolegate.user`); see [observability.md](observability.md)"),
}

// testVariables are the test suite's own variables (path.Match patterns):
// known, so not warned about, and not in the table of docs/configuration.md.
var testVariables = []string{"AUTH_TEST_*"}

// setting is one row of the settings table.
type setting struct {
	// name is the variable, or for a family the name the table shows.
	name string
	// known are the variables (path.Match patterns) the row stands for;
	// nil: name alone.
	known []string
	// shown is the default as the table shows it ("" for none).
	shown string
	// doc is its one line in the table.
	doc string
	// raw: the value is taken as it is (a secret may hold spaces);
	// otherwise it is trimmed, and an empty value is unset.
	raw bool
	// read parses a set value into c; an error names the variable. Nil:
	// rolegate does not read it here (the host app or another package do).
	read func(c *Config, key, v string) error
	// fill puts the default into c when its field is zero; nil: the zero
	// value is the default.
	fill func(c *Config)
}

func (s setting) showing(shown string) setting { s.shown = shown; return s }

func (s setting) matching(known ...string) setting { s.known = known; return s }

func (s setting) names() []string {
	if s.known != nil {
		return s.known
	}
	return []string{s.name}
}

// text is a string setting; def is the default ("" for none).
func text(name string, field func(*Config) *string, def, doc string) setting {
	s := setting{name: name, shown: def, doc: doc, read: func(c *Config, _, v string) error {
		*field(c) = v
		return nil
	}}
	if def != "" {
		s.fill = func(c *Config) { orDefault(field(c), def) }
	}
	return s
}

// secret is a string setting taken untrimmed, with no default.
func secret(name string, field func(*Config) *string, doc string) setting {
	s := text(name, field, "", doc)
	s.raw = true
	return s
}

// boolean is a boolean setting, false by default.
func boolean(name string, field func(*Config) *bool, doc string) setting {
	return setting{name: name, shown: "false", doc: doc, read: func(c *Config, key, v string) error {
		b, err := parseFlag(key, v)
		if err == nil {
			*field(c) = b
		}
		return err
	}}
}

// flagOff is a boolean setting true by default, whose false sets a
// Disable... field (see Config: the zero value means the defaults).
func flagOff(name string, disable func(*Config) *bool, doc string) setting {
	return setting{name: name, shown: "true", doc: doc, read: func(c *Config, key, v string) error {
		b, err := parseFlag(key, v)
		if err == nil {
			*disable(c) = !b
		}
		return err
	}}
}

// number is a whole-number setting from lo to hi; Config's zero means def.
func number(name string, field func(*Config) *int, def, lo, hi int, doc string) setting {
	return setting{name: name, shown: strconv.Itoa(def), doc: doc,
		read: func(c *Config, key, v string) error {
			n, err := parseNumber(key, v, lo, hi)
			if err == nil {
				*field(c) = n
			}
			return err
		},
		fill: func(c *Config) { orDefault(field(c), def) }}
}

// duration is a Go duration setting of at least lo; Config's zero means def.
func duration(name string, field func(*Config) *time.Duration, def, lo time.Duration, doc string) setting {
	return setting{name: name, shown: showDuration(def), doc: doc,
		read: func(c *Config, key, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < lo {
				return fmt.Errorf("%s=%q is not a duration of at least %s (like %s)", key, v, shortDuration(lo), shortDuration(def))
			}
			*field(c) = d
			return nil
		},
		fill: func(c *Config) { orDefault(field(c), def) }}
}

// fraction is a number above 0 and at most 1; Config's zero means def.
func fraction(name string, field func(*Config) *float64, def float64, example, doc string) setting {
	return setting{name: name, shown: strconv.FormatFloat(def, 'g', -1, 64), doc: doc,
		read: func(c *Config, key, v string) error {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f > 0 && f <= 1) {
				return fmt.Errorf("%s=%q is not a number above 0 and at most 1 (like %s)", key, v, example)
			}
			*field(c) = f
			return nil
		},
		fill: func(c *Config) { orDefault(field(c), def) }}
}

// list is a comma-separated setting; Config's nil means def.
func list(name string, field func(*Config) *[]string, def []string, doc string) setting {
	s := setting{name: name, shown: strings.Join(def, ","), doc: doc, read: func(c *Config, _, v string) error {
		*field(c) = splitList(v)
		return nil
	}}
	if def != nil {
		s.fill = func(c *Config) {
			if *field(c) == nil {
				*field(c) = append([]string(nil), def...)
			}
		}
	}
	return s
}

// custom is a setting with its own parser; its default, if any, is
// applied where the field is used (shown says which).
func custom(name, shown, doc string, read func(c *Config, key, v string) error) setting {
	return setting{name: name, shown: shown, doc: doc, read: read}
}

// readElsewhere is a variable rolegate knows but this table does not
// parse: the host app's, or one loginx or samples reads.
func readElsewhere(name, shown, doc string) setting {
	return setting{name: name, shown: shown, doc: doc}
}

func parseFlag(key, v string) (bool, error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%q is not true or false", key, v)
	}
	return b, nil
}

func parseNumber(key, v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s=%q is not a whole number from %d to %d", key, v, lo, hi)
	}
	return n, nil
}

// shortDuration writes d without zero trailing units: 2160h, 1m, 1s, 10ms.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// showDuration is shortDuration with whole days spelt out: 2160h (90 days).
func showDuration(d time.Duration) string {
	const day = 24 * time.Hour
	if d >= 2*day && d%day == 0 {
		return fmt.Sprintf("%s (%d days)", shortDuration(d), d/day)
	}
	return shortDuration(d)
}

// readSettings parses every setting of the table that getenv sets into c,
// and returns the problems.
func readSettings(c *Config, getenv func(string) string) []error {
	var errs []error
	for _, s := range settings {
		if s.read == nil {
			continue
		}
		v := getenv(s.name)
		if !s.raw {
			v = strings.TrimSpace(v)
		}
		if v == "" {
			continue
		}
		if err := s.read(c, s.name, v); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// fillDefaults puts each setting's default into the zero fields of c.
func fillDefaults(c *Config) {
	for _, s := range settings {
		if s.fill != nil {
			s.fill(c)
		}
	}
}

// settingsTable renders the settings as the Markdown table of docs/configuration.md.
func settingsTable() string {
	var b strings.Builder
	b.WriteString("| Variable | Default | Meaning |\n|---|---|---|\n")
	for _, s := range settings {
		shown := " "
		if s.shown != "" {
			shown = " " + s.shown + " "
		}
		fmt.Fprintf(&b, "| %s |%s| %s |\n", s.name, shown, s.doc)
	}
	return b.String()
}

func knownVariable(name string) bool {
	for _, s := range settings {
		for _, k := range s.names() {
			if ok, _ := path.Match(k, name); ok {
				return true
			}
		}
	}
	for _, p := range testVariables {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// unknownVariables returns the AUTH_ names among names that nobody reads,
// each once, in order.
func unknownVariables(names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if strings.HasPrefix(n, "AUTH_") && !knownVariable(n) && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// warnUnknownVariables logs one line per unknown variable, with the known
// name it most likely misspells.
func warnUnknownVariables(log *slog.Logger, names []string) {
	for _, n := range names {
		if near := nearestVariable(n); near != "" {
			log.Warn("unknown setting ignored", "variable", n, "did_you_mean", near)
		} else {
			log.Warn("unknown setting ignored", "variable", n)
		}
	}
}

// nearestVariable is the known name (not a family) within two edits of
// name, if any.
func nearestVariable(name string) string {
	best, bestD := "", 3
	for _, s := range settings {
		for _, k := range s.names() {
			if strings.Contains(k, "*") {
				continue
			}
			if d := editDistance(name, k); d < bestD {
				best, bestD = k, d
			}
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
