package authz

import (
	"context"
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
		c.ServerHost != "127.0.0.1" || c.ServerPort != 8000 || c.DebugMode || !c.AllowCORS ||
		len(c.CORSOrigins) != 1 || c.CORSOrigins[0] != "*" || !c.EnableAuditLogging ||
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
		"AUTH_SERVER_PORT": "9000", "AUTH_DEBUG_MODE": "true", "AUTH_ALLOW_CORS": "false",
		"AUTH_CORS_ORIGINS": "https://a.example, https://b.example", "AUTH_ENABLE_AUDIT_LOGGING": "0",
		"AUTH_CLIENT_KEY": "3F0E2B1C-9A4D-4E8F-8B2A-1C3D5E7F9A0B", "AUTH_REVISION_CHECK_INTERVAL": "250ms",
		"AUTH_AUDIT_REFUSALS_PER_SECOND": "7",
		"AUTH_SAMPLES_USERNAME":          "u", "AUTH_SAMPLES_PASSWORD": "p", "AUTH_SAMPLES_API_KEY": "k",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.DatabaseType != "postgresql" || c.PostgreSQLURL != "postgres://x@h/db" || c.JWTAlgorithm != "HS512" ||
		c.JWTAccessTokenExpireMinutes != 30 || c.ServerPort != 9000 || !c.DebugMode || c.AllowCORS ||
		len(c.CORSOrigins) != 2 || c.CORSOrigins[1] != "https://b.example" || c.EnableAuditLogging ||
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
		"port not a number":        {map[string]string{"AUTH_SERVER_PORT": "eighty"}, "AUTH_SERVER_PORT"},
		"port out of range":        {map[string]string{"AUTH_SERVER_PORT": "70000"}, "AUTH_SERVER_PORT"},
		"bool":                     {map[string]string{"AUTH_DEBUG_MODE": "maybe"}, "AUTH_DEBUG_MODE"},
		"expiry zero":              {map[string]string{"AUTH_JWT_ACCESS_TOKEN_EXPIRE_MINUTES": "0"}, "AUTH_JWT_ACCESS_TOKEN_EXPIRE_MINUTES"},
		"interval":                 {map[string]string{"AUTH_REVISION_CHECK_INTERVAL": "soon"}, "AUTH_REVISION_CHECK_INTERVAL"},
		"database type":            {map[string]string{"AUTH_DATABASE_TYPE": "oracle"}, "AUTH_DATABASE_TYPE"},
		"encryption without a key": {map[string]string{"AUTH_ENABLE_ENCRYPTION": "true"}, "AUTH_ENCRYPTION_KEY"},
		"descriptions alone":       {map[string]string{"AUTH_ENCRYPT_DESCRIPTIONS": "true"}, "AUTH_ENCRYPT_DESCRIPTIONS"},
		"algorithm":                {map[string]string{"AUTH_JWT_ALGORITHM": "RS256"}, "AUTH_JWT_ALGORITHM"},
		"weak secret":              {map[string]string{"AUTH_JWT_SECRET_KEY": "short"}, "AUTH_JWT_SECRET_KEY"},
		"weak wrap key":            {map[string]string{"AUTH_JWT_SECRET_WRAP_KEY": "short"}, "AUTH_JWT_SECRET_WRAP_KEY"},
		"client key":               {map[string]string{"AUTH_CLIENT_KEY": "not-a-uuid"}, "AUTH_CLIENT_KEY"},
		"origin":                   {map[string]string{"AUTH_CORS_ORIGINS": "example.com"}, "AUTH_CORS_ORIGINS"},
		"samples half set":         {map[string]string{"AUTH_SAMPLES_USERNAME": "u"}, "AUTH_SAMPLES"},
		"refusal budget":           {map[string]string{"AUTH_AUDIT_REFUSALS_PER_SECOND": "0"}, "AUTH_AUDIT_REFUSALS_PER_SECOND"},
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
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("AUTH_SERVER_PORT=9100\nAUTH_SERVER_HOST=0.0.0.0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv("AUTH_SERVER_HOST", "127.0.0.2")
	c, err := ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if c.ServerPort != 9100 || c.ServerHost != "127.0.0.2" {
		t.Fatalf("port %d host %s: want 9100 from .env and 127.0.0.2 from the environment", c.ServerPort, c.ServerHost)
	}
}
