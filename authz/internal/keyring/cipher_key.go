package keyring

import (
	"context"
	"encoding/hex"
	"fmt"
	"unicode/utf8"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
)

// Settings that hold the store's encryption parameters.
const (
	settingCipherCheck = "cipher_check"
	settingCipherSalt  = "cipher_salt"
)

// openCipher derives the store's keys from AUTH_ENCRYPTION_KEY. A store
// that has a key check value but no salt was encrypted before per-store
// salts: it keeps the fixed salt (and its passphrase, however short, with
// a warning), or its data would no longer read. Any other store gets a
// random salt of its own, kept in rolegate_settings (the first replica's
// wins, so all agree), and needs a passphrase of cipher.MinPassphraseLen
// characters. The salt is written before the check value, so a store with
// a check value and no salt is always a legacy one.
func (k *Keys) openCipher(ctx context.Context, key string) (*cipher.Cipher, error) {
	_, checked, err := storage.GetSetting(ctx, k.db, settingCipherCheck)
	if err != nil {
		return nil, fmt.Errorf("authz: %w", err)
	}
	salt, salted, err := storage.GetSetting(ctx, k.db, settingCipherSalt)
	if err != nil {
		return nil, fmt.Errorf("authz: %w", err)
	}
	if checked && !salted {
		if utf8.RuneCountInString(key) < cipher.MinPassphraseLen {
			k.log.Warn(fmt.Sprintf("AUTH_ENCRYPTION_KEY is shorter than %d characters; this store was encrypted before that minimum and keeps working, but a new store would refuse it", cipher.MinPassphraseLen))
		}
		c, err := cipher.New(key)
		if err != nil {
			return nil, fmt.Errorf("authz: AUTH_ENCRYPTION_KEY: %w", err)
		}
		return c, nil
	}
	if n := utf8.RuneCountInString(key); n < cipher.MinPassphraseLen {
		return nil, fmt.Errorf("authz: AUTH_ENCRYPTION_KEY has %d characters; at least %d are required", n, cipher.MinPassphraseLen)
	}
	if !salted {
		salt, err = storage.GetOrInitSetting(ctx, k.db, settingCipherSalt, func() (string, error) {
			b, err := cipher.NewSalt()
			return hex.EncodeToString(b), err
		})
		if err != nil {
			return nil, fmt.Errorf("authz: %w", err)
		}
	}
	raw, err := hex.DecodeString(salt)
	if err != nil {
		return nil, fmt.Errorf("authz: the stored %s is not hex", settingCipherSalt)
	}
	c, err := cipher.NewSalted(key, raw)
	if err != nil {
		return nil, fmt.Errorf("authz: AUTH_ENCRYPTION_KEY: %w", err)
	}
	return c, nil
}
