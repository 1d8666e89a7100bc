package authz

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func lookup(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigDefaults(t *testing.T) {
	c, err := ConfigFromLookup(lookup(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.DatabaseType != "sqlite" || c.SQLitePath != "~/.auth.sqlite3" || c.JWTAlgorithm != "HS256" ||
		c.JWTAccessTokenExpireMinutes != 1440 || c.JWTRefreshTokenExpireDays != 7 || c.EnableEncryption ||
		c.DisableCORS || len(c.CORSOrigins) != 1 || c.CORSOrigins[0] != "*" || c.DisableAuditLogging ||
		c.RevisionCheckInterval != time.Second || c.CacheMaxUsers != 200_000 {
		t.Fatalf("defaults = %+v", c)
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
}

func TestConfigFromLookup(t *testing.T) {
	c, err := ConfigFromLookup(lookup(map[string]string{
		"AUTH_DATABASE_TYPE": "postgresql", "AUTH_POSTGRESQL_URL": "postgres://x@h/db",
		"AUTH_JWT_ALGORITHM": "HS512", "AUTH_JWT_ACCESS_TOKEN_EXPIRE_MINUTES": "30",
		"AUTH_ALLOW_CORS":   "false",
		"AUTH_CORS_ORIGINS": "https://a.example, https://b.example", "AUTH_ENABLE_AUDIT_LOGGING": "0",
		"AUTH_CLIENT_KEY": "3F0E2B1C-9A4D-4E8F-8B2A-1C3D5E7F9A0B", "AUTH_REVISION_CHECK_INTERVAL": "250ms",
		"AUTH_AUDIT_REFUSALS_PER_SECOND": "7",
		"AUTH_SAMPLES_USERNAME":          "u", "AUTH_SAMPLES_PASSWORD": "p", "AUTH_SAMPLES_API_KEY": "k",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.DatabaseType != "postgresql" || c.PostgreSQLURL != "postgres://x@h/db" || c.JWTAlgorithm != "HS512" ||
		c.JWTAccessTokenExpireMinutes != 30 || !c.DisableCORS ||
		len(c.CORSOrigins) != 2 || c.CORSOrigins[1] != "https://b.example" || !c.DisableAuditLogging ||
		c.RevisionCheckInterval != 250*time.Millisecond || c.AuditRefusalsPerSecond != 7 || !c.Samples.Enabled() {
		t.Fatalf("config = %+v", c)
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("valid config refused: %v", err)
	}
}

// Each bad setting gives an error naming its variable.
func TestConfigBadSettings(t *testing.T) {
	for name, tc := range map[string]struct {
		env  map[string]string
		want string
	}{
		"bool":                            {map[string]string{"AUTH_ALLOW_CORS": "maybe"}, "AUTH_ALLOW_CORS"},
		"expiry zero":                     {map[string]string{"AUTH_JWT_ACCESS_TOKEN_EXPIRE_MINUTES": "0"}, "AUTH_JWT_ACCESS_TOKEN_EXPIRE_MINUTES"},
		"interval":                        {map[string]string{"AUTH_REVISION_CHECK_INTERVAL": "soon"}, "AUTH_REVISION_CHECK_INTERVAL"},
		"database type":                   {map[string]string{"AUTH_DATABASE_TYPE": "oracle"}, "AUTH_DATABASE_TYPE"},
		"postgresql without a URL":        {map[string]string{"AUTH_DATABASE_TYPE": "postgresql"}, "AUTH_POSTGRESQL_URL"},
		"database URL scheme":             {map[string]string{"AUTH_DATABASE_URL": "mysql://u@h/db"}, "AUTH_DATABASE_URL"},
		"encryption without a key":        {map[string]string{"AUTH_ENABLE_ENCRYPTION": "true"}, "AUTH_ENCRYPTION_KEY"},
		"previous key without encryption": {map[string]string{"AUTH_ENCRYPTION_KEY_PREVIOUS": "an old passphrase 0123456789"}, "AUTH_ENCRYPTION_KEY_PREVIOUS"},
		"descriptions alone":              {map[string]string{"AUTH_ENCRYPT_DESCRIPTIONS": "true"}, "AUTH_ENCRYPT_DESCRIPTIONS"},
		"algorithm":                       {map[string]string{"AUTH_JWT_ALGORITHM": "RS256"}, "AUTH_JWT_ALGORITHM"},
		"weak secret":                     {map[string]string{"AUTH_JWT_SECRET_KEY": "short"}, "AUTH_JWT_SECRET_KEY"},
		"weak wrap key":                   {map[string]string{"AUTH_JWT_SECRET_WRAP_KEY": "short"}, "AUTH_JWT_SECRET_WRAP_KEY"},
		"client key":                      {map[string]string{"AUTH_CLIENT_KEY": "not-a-uuid"}, "AUTH_CLIENT_KEY"},
		"origin":                          {map[string]string{"AUTH_CORS_ORIGINS": "example.com"}, "AUTH_CORS_ORIGINS"},
		"samples half set":                {map[string]string{"AUTH_SAMPLES_USERNAME": "u"}, "AUTH_SAMPLES"},
		"refusal budget":                  {map[string]string{"AUTH_AUDIT_REFUSALS_PER_SECOND": "0"}, "AUTH_AUDIT_REFUSALS_PER_SECOND"},
	} {
		t.Run(name, func(t *testing.T) {
			c, err := ConfigFromLookup(lookup(tc.env))
			if err == nil {
				err = c.Validate()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %s", err, tc.want)
			}
			// Open refuses it too, before touching any database.
			if err := c.Validate(); err != nil {
				if _, oerr := Open(context.Background(), c); oerr == nil {
					t.Fatal("Open accepted a config that does not validate")
				}
			}
		})
	}
}

// A .env file fills what the environment leaves unset; the environment
// wins.
func TestConfigFromEnvReadsDotEnv(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("AUTH_CACHE_MAX_USERS=9100\nAUTH_SQLITE_PATH=/from/dotenv\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv("AUTH_SQLITE_PATH", "/from/env")
	c, err := ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if c.CacheMaxUsers != 9100 || c.SQLitePath != "/from/env" {
		t.Fatalf("cache %d path %s: want 9100 from .env and /from/env from the environment", c.CacheMaxUsers, c.SQLitePath)
	}
}

// TestZeroConfigMeansDefaults: Config{} is the documented defaults (CORS
// and audit on), not a config with them silently off.
func TestZeroConfigMeansDefaults(t *testing.T) {
	got := Config{}.withDefaults()
	want := DefaultConfig()
	if got.DisableCORS || got.DisableAuditLogging || got.DatabaseType != want.DatabaseType ||
		got.SQLitePath != want.SQLitePath || got.JWTAlgorithm != want.JWTAlgorithm ||
		got.JWTAccessTokenExpireMinutes != want.JWTAccessTokenExpireMinutes ||
		strings.Join(got.CORSOrigins, ",") != "*" || got.CacheMaxUsers != want.CacheMaxUsers ||
		got.RevisionCheckInterval != want.RevisionCheckInterval {
		t.Fatalf("Config{} means %+v", got)
	}
	if err := (Config{}).Validate(); err != nil {
		t.Fatalf("Config{} does not validate: %v", err)
	}
}

// TestConfigErrorsAllAtOnce: a setting that does not parse does not hide
// one that does not validate; every problem is on one line under one
// prefix.
func TestConfigErrorsAllAtOnce(t *testing.T) {
	for name, tc := range map[string]struct {
		env  map[string]string
		want []string
	}{
		// The storage settings are checked with the rest, not later at
		// Open: a PostgreSQL type without a URL is one of the problems.
		"postgresql without a URL": {map[string]string{
			"AUTH_CACHE_MAX_USERS":   "lots",       // parse
			"AUTH_ENABLE_ENCRYPTION": "true",       // validate: no key
			"AUTH_DATABASE_TYPE":     "postgresql", // storage: no URL
		}, []string{"AUTH_CACHE_MAX_USERS", "AUTH_ENCRYPTION_KEY", "AUTH_POSTGRESQL_URL"}},
		"unknown type and a bad URL": {map[string]string{
			"AUTH_JWT_ALGORITHM": "RS256",          // validate
			"AUTH_DATABASE_TYPE": "oracle",         // storage
			"AUTH_DATABASE_URL":  "mysql://u@h/db", // storage, though it overrides the type
		}, []string{"AUTH_JWT_ALGORITHM", "AUTH_DATABASE_TYPE", "AUTH_DATABASE_URL"}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ConfigFromLookup(lookup(tc.env))
			var ce *ConfigError
			if !errors.As(err, &ce) || len(ce.Problems) != len(tc.want) {
				t.Fatalf("err = %v, want a ConfigError with %d problems", err, len(tc.want))
			}
			msg := err.Error()
			for _, want := range tc.want {
				if !strings.Contains(msg, want) {
					t.Errorf("%q does not name %s", msg, want)
				}
			}
			if !strings.HasPrefix(msg, "authz: configuration: ") || strings.Contains(msg, "\n") ||
				strings.Count(msg, "authz:") != 1 || strings.Contains(msg, "storage:") {
				t.Errorf("not one line under one prefix: %q", msg)
			}
		})
	}
	for _, typ := range []string{"oracle", "postgresql"} {
		cfg := DefaultConfig()
		cfg.DatabaseType = typ
		cfg.EnableEncryption = true
		err := func() error { _, err := Open(context.Background(), cfg); return err }()
		if err == nil || !strings.HasPrefix(err.Error(), "authz: configuration: ") || !strings.Contains(err.Error(), "AUTH_ENCRYPTION_KEY") {
			t.Errorf("Open with %s: %v, want the configuration error naming both problems", typ, err)
		}
	}
}

// TestDatabaseTypeSpellings: AUTH_DATABASE_TYPE accepts sqlite and
// postgresql, also spelt sqlite3 and postgres (the schemes
// AUTH_DATABASE_URL accepts), in any letter case, as the settings table
// says; anything else is refused.
func TestDatabaseTypeSpellings(t *testing.T) {
	for _, typ := range []string{"sqlite", "SQLite", "sqlite3", "postgresql", "postgres", "Postgres"} {
		env := map[string]string{"AUTH_DATABASE_TYPE": typ, "AUTH_POSTGRESQL_URL": "postgres://u@h/db"}
		if _, err := ConfigFromLookup(lookup(env)); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
	}
	for _, typ := range []string{"pg", "mysql", "sqlite4", "postgre"} {
		if _, err := ConfigFromLookup(lookup(map[string]string{"AUTH_DATABASE_TYPE": typ})); err == nil {
			t.Errorf("%s: accepted", typ)
		}
	}
	doc := settingsTable()
	if !strings.Contains(doc, "`postgres`") || !strings.Contains(doc, "`sqlite3`") {
		t.Error("the settings table does not name the spellings postgres and sqlite3")
	}
}

// TestUnknownVariablesWarned: a misspelled AUTH_ variable is named in a
// warning at Open, with the setting it was probably meant to be; the
// known families (other parts' settings, per-provider names) are not.
func TestUnknownVariablesWarned(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("AUTH_CLIENT_KYE", "x")
	t.Setenv("AUTH_OAUTH_GOOGLE_USER_CLAIM", "email")
	t.Setenv("AUTH_MAX_ROWS_PER_CLIENT", "10")
	t.Setenv("AUTH_SERVER_PORT", "8000")
	cfg, err := ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(cfg.unknownVars, ",") != "AUTH_CLIENT_KYE" {
		t.Fatalf("unknown = %v", cfg.unknownVars)
	}
	var logs strings.Builder
	cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	cfg.SQLitePath = filepath.Join(t.TempDir(), "a.db")
	az, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	az.Close()
	if !strings.Contains(logs.String(), "variable=AUTH_CLIENT_KYE did_you_mean=AUTH_CLIENT_KEY") {
		t.Errorf("no warning naming the misspelling:\n%s", logs.String())
	}
}
