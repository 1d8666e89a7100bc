package loginx

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// secretSetting is the settings key of the generated JWT secret.
const secretSetting = "jwt_secret"

// signingKey returns the explicit secret, or the generated one kept in the
// store (creating it on first use, first writer wins across replicas).
func signingKey(ctx context.Context, db bun.IDB, cfg Config) ([]byte, error) {
	if cfg.JWTSecret != "" {
		return []byte(cfg.JWTSecret), nil
	}
	v, err := storage.GetOrInitSetting(ctx, db, secretSetting, func() (string, error) {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return "", err
		}
		return base64.RawStdEncoding.EncodeToString(b), nil
	})
	if err != nil {
		return nil, fmt.Errorf("loginx: JWT secret: %w", err)
	}
	key, err := base64.RawStdEncoding.DecodeString(v)
	if err != nil || len(key) < MinSecretLen {
		return nil, fmt.Errorf("loginx: the stored JWT secret (setting %q) is malformed", secretSetting)
	}
	cfg.Logger.Warn("loginx: AUTH_JWT_SECRET_KEY is not set; signing sessions with a generated secret kept in the store")
	return key, nil
}
