package loginx_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/storage/cipher"
	"github.com/rolegate/rolegate/storage/storagetest"
)

const wrapKey = "host-supplied-wrap-key-0123456789abcdef"

// encodings are the forms a secret could be written in.
func encodings(key []byte) [][]byte {
	return [][]byte{key,
		[]byte(base64.RawStdEncoding.EncodeToString(key)), []byte(base64.StdEncoding.EncodeToString(key)),
		[]byte(base64.RawURLEncoding.EncodeToString(key)), []byte(hex.EncodeToString(key))}
}

// storedBytes is everything the database holds that a reader of it sees:
// the SQLite file and its -wal and -shm, or PostgreSQL's settings table.
func storedBytes(t *testing.T, target storagetest.Target, db *bun.DB) []byte {
	t.Helper()
	if target.Name == "sqlite" {
		var all []byte
		for _, suffix := range []string{"", "-wal", "-shm"} {
			b, err := os.ReadFile(target.Config.SQLitePath + suffix)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			all = append(all, b...)
		}
		return all
	}
	var rows []string
	if err := db.NewRaw("SELECT key || '=' || value FROM rolegate_settings").Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	return []byte(strings.Join(rows, "\n"))
}

func wantNotStored(t *testing.T, target storagetest.Target, db *bun.DB, key []byte) {
	t.Helper()
	if len(key) < loginx.MinSecretLen {
		t.Fatalf("signing key is %d bytes", len(key))
	}
	stored := storedBytes(t, target, db)
	for _, enc := range encodings(key) {
		if bytes.Contains(stored, enc) {
			t.Fatalf("the signing secret is in the %s database in plain text (%.12s...)", target.Name, enc)
		}
	}
}

func setting(t *testing.T, db *bun.DB, key string) (string, bool) {
	t.Helper()
	var v []string
	if err := db.NewRaw("SELECT value FROM rolegate_settings WHERE key = ?", key).Scan(context.Background(), &v); err != nil {
		t.Fatal(err)
	}
	if len(v) == 0 {
		return "", false
	}
	return v[0], true
}

// TestGeneratedSecretNotInPlainText: a generated secret is sealed under the
// wrap key or the encryption key, never readable in the database file, and
// replicas (and a restart) agree on it.
func TestGeneratedSecretNotInPlainText(t *testing.T) {
	enc, err := cipher.New("an encryption passphrase for the tests")
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]func(*loginx.Config){
		"wrap-key":       func(c *loginx.Config) { c.JWTSecret = ""; c.SecretWrapKey = wrapKey },
		"encryption-key": func(c *loginx.Config) { c.JWTSecret = ""; c.SecretCipher = enc },
	}
	for name, mode := range modes {
		t.Run(name, func(t *testing.T) {
			storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
				db := storagetest.OpenTarget(t, target)
				a := newEnv(t, db, mode)
				b := newEnvWithProvider(t, storagetest.OpenTarget(t, target), a.idp, mode)
				tok := a.mustLogin(alice)["authToken"].(string)
				if u, err := resolve(b.svc, bearer(tok)...); err != nil || u != aliceName {
					t.Fatalf("replica with the generated secret: %q %v", u, err)
				}
				key := loginx.SigningKeyOf(a.svc)
				if !bytes.Equal(key, loginx.SigningKeyOf(b.svc)) {
					t.Fatal("replicas disagree on the secret")
				}
				wantNotStored(t, target, db, key)
				if v, ok := setting(t, db, "jwt_secret_sealed"); !ok || !strings.HasPrefix(v, name+":") {
					t.Fatalf("sealed setting %q (%v), want prefix %s:", v, ok, name)
				}
				if _, ok := setting(t, db, "jwt_secret"); ok {
					t.Fatal("a plain jwt_secret setting exists")
				}
				// Another key does not open it: refused with one line.
				wrong := func(c *loginx.Config) { c.SecretWrapKey = wrapKey + "-other" }
				if name == "encryption-key" {
					wrong = func(c *loginx.Config) { c.SecretWrapKey = wrapKey } // encryption off
				}
				cfg := loginx.Config{Logger: quietLogger()}
				wrong(&cfg)
				if s, err := loginx.New(context.Background(), db, cfg); err == nil {
					s.Close()
					t.Fatal("a secret sealed under another key was accepted")
				} else if strings.Contains(err.Error(), "\n") {
					t.Fatalf("error is not one line: %q", err)
				}
			})
		})
	}
}

// TestNoSecretSourceRefused: with neither an explicit secret nor a key to
// seal a generated one, New refuses with one line naming the settings.
func TestNoSecretSourceRefused(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		_, err := loginx.New(context.Background(), db, loginx.Config{Logger: quietLogger()})
		if err == nil || !strings.Contains(err.Error(), "AUTH_JWT_SECRET_KEY") || !strings.Contains(err.Error(), "AUTH_JWT_SECRET_WRAP_KEY") {
			t.Fatalf("err = %v", err)
		}
		if _, ok := setting(t, db, "jwt_secret"); ok {
			t.Fatal("a secret was stored")
		}
		if _, ok := setting(t, db, "jwt_secret_sealed"); ok {
			t.Fatal("a secret was stored")
		}
	})
}

// TestPlainStoredSecretMigrates: a store where an earlier version kept the
// generated secret in plain text is refused without a key, wrapped (same
// secret, so sessions survive) with one, and the plain copy deleted.
func TestPlainStoredSecretMigrates(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		db := storagetest.OpenTarget(t, target)
		ctx := context.Background()
		legacy := make([]byte, 32)
		_, _ = rand.Read(legacy)
		plain := base64.RawStdEncoding.EncodeToString(legacy)
		if _, err := db.NewRaw("INSERT INTO rolegate_settings (key, value) VALUES ('jwt_secret', ?)", plain).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		_, err := loginx.New(ctx, db, loginx.Config{Logger: quietLogger()})
		if err == nil || !strings.Contains(err.Error(), "plain text") || !strings.Contains(err.Error(), "AUTH_JWT_SECRET_WRAP_KEY") || strings.Contains(err.Error(), "\n") {
			t.Fatalf("err = %v", err)
		}
		if v, ok := setting(t, db, "jwt_secret"); !ok || v != plain {
			t.Fatal("the refused start changed the stored secret")
		}

		e := newEnv(t, db, func(c *loginx.Config) { c.JWTSecret = ""; c.SecretWrapKey = wrapKey })
		if !bytes.Equal(loginx.SigningKeyOf(e.svc), legacy) {
			t.Fatal("the wrapped secret is not the one that was stored")
		}
		if _, ok := setting(t, db, "jwt_secret"); ok {
			t.Fatal("the plain secret is still stored")
		}
		wantNotStored(t, target, db, legacy)
		// A replica started later opens the wrapped one.
		f := newEnvWithProvider(t, storagetest.OpenTarget(t, target), e.idp, func(c *loginx.Config) { c.JWTSecret = ""; c.SecretWrapKey = wrapKey })
		if !bytes.Equal(loginx.SigningKeyOf(f.svc), legacy) {
			t.Fatal("replicas disagree after the migration")
		}
	})
}

// TestPlainStoredSecretDeletedByExplicitSecret: with AUTH_JWT_SECRET_KEY
// set, the plain generated secret an earlier version stored is deleted.
func TestPlainStoredSecretDeletedByExplicitSecret(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		if _, err := db.NewRaw("INSERT INTO rolegate_settings (key, value) VALUES ('jwt_secret', ?)", base64.RawStdEncoding.EncodeToString(make([]byte, 32))).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		e := newEnv(t, db)
		if string(loginx.SigningKeyOf(e.svc)) != secret {
			t.Fatal("the explicit secret is not used")
		}
		if _, ok := setting(t, db, "jwt_secret"); ok {
			t.Fatal("the plain secret is still stored")
		}
	})
}
