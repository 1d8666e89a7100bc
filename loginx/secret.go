package loginx

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx/internal/store"
	"github.com/rolegate/rolegate/loginx/loginapi"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
)

// Settings keys of the generated signing secret, and its subkeys'
// namespace (see package store).
const (
	legacySecretSetting = store.LegacySecretSetting
	sealedSecretSetting = store.SealedSecretSetting
)

var secretNamespace = store.SecretNamespace

// sealer keeps the generated secret at rest under a key from outside the
// database.
type sealer struct {
	name string // stored before the sealed value; names the key in errors
	seal func([]byte) (string, error)
	open func(string) ([]byte, error)
}

// sealers returns the configured sealers, the preferred (used to seal a
// new secret) first: the encryption key, then the wrap key.
func sealers(cfg Config) ([]sealer, error) {
	var out []sealer
	if cfg.SecretCipher != nil {
		cc := cfg.SecretCipher.ForClient(secretNamespace)
		out = append(out, sealer{
			name: "encryption-key",
			seal: func(b []byte) (string, error) { return cc.Encrypt(base64.RawStdEncoding.EncodeToString(b)), nil },
			open: func(s string) ([]byte, error) {
				if !cipher.IsEncrypted(s) {
					return nil, errors.New("not encrypted")
				}
				p, err := cc.Decrypt(s)
				if err != nil {
					return nil, err
				}
				return base64.RawStdEncoding.DecodeString(p)
			},
		})
	}
	if cfg.SecretWrapKey != "" {
		w, err := newWrapper(cfg.SecretWrapKey)
		if err != nil {
			return nil, err
		}
		out = append(out, sealer{name: "wrap-key", seal: w.seal, open: w.open})
	}
	return out, nil
}

// signingKey returns the explicit secret, or the generated one kept sealed
// in the store (creating it on first use, first writer wins across
// replicas, so that they agree and restarts keep sessions). It never
// stores a secret in plain text, and it removes the plain one that earlier
// versions stored: wrapped when a sealer is configured, deleted when an
// explicit secret replaces it, and a start with neither is refused.
func signingKey(ctx context.Context, db bun.IDB, cfg Config) ([]byte, error) {
	legacy, hasLegacy, err := storage.GetSetting(ctx, db, legacySecretSetting)
	if err != nil {
		return nil, fmt.Errorf("loginx: JWT secret: %w", err)
	}
	if cfg.JWTSecret != "" {
		if hasLegacy {
			if err := storage.DeleteSetting(ctx, db, legacySecretSetting, legacy); err != nil {
				return nil, fmt.Errorf("loginx: deleting the plain stored JWT secret: %w", err)
			}
			cfg.Logger.Warn("loginx: deleted the generated JWT secret that was stored in plain text; AUTH_JWT_SECRET_KEY signs sessions now")
		}
		return []byte(cfg.JWTSecret), nil
	}
	ss, err := sealers(cfg)
	if err != nil {
		return nil, fmt.Errorf("loginx: JWT secret: %w", err)
	}
	if len(ss) == 0 {
		if hasLegacy {
			return nil, errors.New("loginx: the store holds the session secret in plain text (setting jwt_secret); set AUTH_JWT_SECRET_WRAP_KEY (or enable encryption) to wrap it, or AUTH_JWT_SECRET_KEY to replace it")
		}
		return nil, errors.New("loginx: no session secret: set AUTH_JWT_SECRET_KEY, or AUTH_JWT_SECRET_WRAP_KEY (or enable encryption) to keep a generated one wrapped in the store")
	}
	v, err := storage.GetOrInitSetting(ctx, db, sealedSecretSetting, func() (string, error) {
		key := make([]byte, 32)
		if hasLegacy {
			if key, err = decodeLegacy(legacy); err != nil {
				return "", err
			}
		} else if _, err := rand.Read(key); err != nil {
			return "", err
		}
		sealed, err := ss[0].seal(key)
		return ss[0].name + ":" + sealed, err
	})
	if err != nil {
		return nil, fmt.Errorf("loginx: JWT secret: %w", err)
	}
	key, err := openSealed(v, ss)
	if err != nil {
		return nil, err
	}
	if hasLegacy {
		if err := storage.DeleteSetting(ctx, db, legacySecretSetting, legacy); err != nil {
			return nil, fmt.Errorf("loginx: deleting the plain stored JWT secret: %w", err)
		}
		cfg.Logger.Info("loginx: the generated JWT secret stored in plain text is now wrapped", "by", ss[0].name)
	}
	return key, nil
}

func decodeLegacy(v string) ([]byte, error) {
	key, err := base64.RawStdEncoding.DecodeString(v)
	if err != nil || len(key) < MinSecretLen {
		return nil, fmt.Errorf("loginx: the stored JWT secret (setting %q) is malformed", legacySecretSetting)
	}
	return key, nil
}

// openSealed opens the stored value with the sealer that sealed it.
func openSealed(v string, ss []sealer) ([]byte, error) {
	name, sealed, _ := strings.Cut(v, ":")
	for _, s := range ss {
		if s.name != name {
			continue
		}
		key, err := s.open(sealed)
		if err != nil || len(key) < MinSecretLen {
			return nil, fmt.Errorf("loginx: the stored session secret does not open with the configured %s (was it changed?); restore it, or delete setting %q to end every session", name, sealedSecretSetting)
		}
		return key, nil
	}
	return nil, fmt.Errorf("loginx: the stored session secret is sealed with the %s, which is not configured; configure it again, or delete setting %q to end every session", name, sealedSecretSetting)
}

// ResealSecret moves the generated session secret sealed under the
// encryption key from one key to another (see loginapi.ResealSecret).
func ResealSecret(ctx context.Context, db bun.IDB, from, to *cipher.Cipher) error {
	return loginapi.ResealSecret(ctx, db, from, to)
}
