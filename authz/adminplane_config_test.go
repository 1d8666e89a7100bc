package authz

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// The admin plane's, quotas', retention's and proxies' settings are read
// from the environment, and bad values name their variable without
// echoing a key.
func TestConfigAdminPlaneSettings(t *testing.T) {
	k1, k2 := "3f0e2b1c-9a4d-4e8f-8b2a-1c3d5e7f9a0b", "6a2c7a1e-0b3f-4f6e-9d7c-2e1f0a9b8c7d"
	c, err := ConfigFromLookup(lookup(map[string]string{
		"AUTH_CLIENT_KEYS": k1 + " , " + k2, "AUTH_MAX_ROWS_PER_CLIENT": "500", "AUTH_MAX_NAMESPACES": "7",
		"AUTH_AUDIT_RETENTION": "720h", "AUTH_AUDIT_MAX_RECORDS": "1000", "AUTH_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.7",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.ClientKeys) != 2 || c.ClientKeys[1] != k2 || c.MaxRowsPerClient != 500 || c.MaxNamespaces != 7 ||
		c.AuditRetention != 720*time.Hour || c.AuditMaxRecords != 1000 || len(c.TrustedProxies) != 2 {
		t.Fatalf("config = %+v", c)
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("valid config refused: %v", err)
	}
	d := DefaultConfig()
	if d.MaxRowsPerClient != 10_000 || d.MaxNamespaces != 100 || d.AuditRetention != 90*24*time.Hour ||
		d.AuditMaxRecords != 1_000_000 || d.TrustedProxies != nil || d.ClientKeys != nil {
		t.Fatalf("defaults = %+v", d)
	}
	secret := "not-a-uuid-but-secret"
	for name, tc := range map[string]struct{ env map[string]string }{
		"AUTH_CLIENT_KEYS":         {map[string]string{"AUTH_CLIENT_KEYS": k1 + "," + secret}},
		"AUTH_MAX_ROWS_PER_CLIENT": {map[string]string{"AUTH_MAX_ROWS_PER_CLIENT": "-1"}},
		"AUTH_MAX_NAMESPACES":      {map[string]string{"AUTH_MAX_NAMESPACES": "many"}},
		"AUTH_AUDIT_RETENTION":     {map[string]string{"AUTH_AUDIT_RETENTION": "1s"}},
		"AUTH_AUDIT_MAX_RECORDS":   {map[string]string{"AUTH_AUDIT_MAX_RECORDS": "0"}},
		"AUTH_TRUSTED_PROXIES":     {map[string]string{"AUTH_TRUSTED_PROXIES": "proxy.internal"}},
	} {
		t.Run(name, func(t *testing.T) {
			c, err := ConfigFromLookup(lookup(tc.env))
			if err == nil {
				err = c.Validate()
			}
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("error %v, want one naming %s", err, name)
			}
			if strings.Contains(err.Error(), secret) {
				t.Fatalf("the error echoes a key: %v", err)
			}
		})
	}
}

// Open mode says so at startup, in one line; a closed plane does not.
func TestOpenModeWarnsOnce(t *testing.T) {
	target := storagetest.SQLite(t)
	for _, tc := range []struct {
		name string
		key  string
		want int
	}{{"open", "", 1}, {"closed", newKey(), 0}} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			cfg := configFor(target)
			cfg.ClientKey = tc.key
			cfg.Logger = slog.New(slog.NewTextHandler(&buf, nil))
			az, err := Open(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			az.Close()
			if n := strings.Count(buf.String(), "AUTH_CLIENT_KEYS is set"); n != tc.want {
				t.Errorf("open-mode warning logged %d times, want %d:\n%s", n, tc.want, buf.String())
			}
		})
	}
}
