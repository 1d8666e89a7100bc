package loginapi

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx/internal/store"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
)

// ResealSecret moves the generated session secret sealed under the
// encryption key from one key to another (a key rotation). A secret sealed
// otherwise, or none, is left as it is; so is one already under to.
func ResealSecret(ctx context.Context, db bun.IDB, from, to *cipher.Cipher) error {
	v, ok, err := storage.GetSetting(ctx, db, store.SealedSecretSetting)
	if err != nil || !ok {
		return err
	}
	name, sealed, _ := strings.Cut(v, ":")
	if name != "encryption-key" {
		return nil
	}
	newCC := to.ForClient(store.SecretNamespace)
	if _, err := newCC.Decrypt(sealed); err == nil {
		return nil
	}
	p, err := from.ForClient(store.SecretNamespace).Decrypt(sealed)
	if err != nil {
		return fmt.Errorf("loginx: the stored session secret does not open with the previous encryption key: %w", err)
	}
	_, err = db.NewRaw("UPDATE rolegate_settings SET value = ? WHERE key = ? AND value = ?",
		name+":"+newCC.Encrypt(p), store.SealedSecretSetting, v).Exec(ctx)
	return storage.Classify(err)
}
