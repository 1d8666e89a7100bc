// Package keyring owns the encryption of stored names: the keys derived from
// AUTH_ENCRYPTION_KEY (and AUTH_ENCRYPTION_KEY_PREVIOUS while rotating),
// the per-client codecs the store encrypts and decrypts through, and the
// background conversion and rotation passes that bring every stored value
// under the current key.
package keyring

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
)

// Config is what the keys are opened from.
type Config struct {
	Key                 string // AUTH_ENCRYPTION_KEY
	Previous            string // AUTH_ENCRYPTION_KEY_PREVIOUS; "" unless rotating
	EncryptDescriptions bool   // AUTH_ENCRYPT_DESCRIPTIONS
}

// Keys is the store's encryption under the configured keys. A nil *Keys
// means encryption is off: its Scope is plain and its Cipher nil.
type Keys struct {
	db  *bun.DB
	log *slog.Logger
	cfg Config
	// goBackground runs work that the owner's Close waits for.
	goBackground func(func(ctx context.Context))
	// fingerprint names a namespace in audit records.
	fingerprint func(ns string) string

	cipher     *cipher.Cipher // the key of the values written
	generation int            // the key generation of cipher's values
	// previous is the key being rotated away from (with the generation of
	// its values; 0 for format 1), set when Open finds a rotation to do or
	// under way: clients then read values under either key and look up
	// both stored forms, until a restart with the new key alone (also
	// after the background pass has ended).
	previous    *cipher.Cipher
	previousGen int
	memos       memoBudgetUse // entries of all clients' codec memos
}

// Open derives the keys and brings the store to the current format under
// cfg.Key (see init). goBackground runs the rotation pass so that the
// caller's Close waits for it; fingerprint maps namespaces to the client
// fingerprints of audit records, whose resources a pass re-encodes.
func Open(ctx context.Context, db *bun.DB, cfg Config, log *slog.Logger,
	goBackground func(func(ctx context.Context)), fingerprint func(ns string) string) (*Keys, error) {
	k := &Keys{db: db, log: log, cfg: cfg, goBackground: goBackground, fingerprint: fingerprint}
	k.memos.max = memoBudget
	if err := k.init(ctx); err != nil {
		return nil, err
	}
	return k, nil
}

// RefuseEncryptedStore stops a start without encryption on a store that
// is encrypted (or being converted): reading on would show ciphertexts as
// names, and its writes would be refused anyway (storage.ErrKeyMismatch).
func RefuseEncryptedStore(ctx context.Context, db bun.IDB) error {
	for _, key := range []string{settingCipherCheck, storage.SettingCipherWriter} {
		_, on, err := storage.GetSetting(ctx, db, key)
		if err != nil {
			return fmt.Errorf("authz: %w", err)
		}
		if on {
			return errors.New("authz: this database is encrypted; set AUTH_ENABLE_ENCRYPTION=true and its AUTH_ENCRYPTION_KEY")
		}
	}
	return nil
}

// Cipher is the current key, for the login service's secret; nil when
// encryption is off.
func (k *Keys) Cipher() *cipher.Cipher {
	if k == nil {
		return nil
	}
	return k.cipher
}

// Scope is the store scope of namespace ns with its codecs: plain when
// encryption is off, else memoised codecs under the current key (and,
// while rotating, the previous one for reads).
func (k *Keys) Scope(ns string) storage.Scope {
	scope := storage.Scope{NS: ns}
	if k == nil {
		return scope
	}
	raw, _ := hex.DecodeString(ns)
	codec := func(col cipher.Column) storage.Codec {
		cur := newMemoCodec(k.cipher.ForColumn(raw, col, k.generation), &k.memos)
		switch {
		case k.previous != nil && k.previousGen >= cipher.FirstGeneration:
			return rotatingCodec{cur, newMemoCodec(k.previous.ForColumn(raw, col, k.previousGen), &k.memos)}
		case k.previous != nil:
			return rotatingCodec{cur, newMemoCodec(k.previous.ForClient(raw), &k.memos)}
		}
		return cur
	}
	scope.Users, scope.Permissions = codec(cipher.ColumnUser), codec(cipher.ColumnPermission)
	// Descriptions are rarely read or written: their subkeys are derived
	// on first use (a new handle costs two derivations, not three).
	scope.Descriptions = &lazyCodec{get: sync.OnceValue(func() storage.Codec { return codec(cipher.ColumnDescription) })}
	scope.EncryptDescriptions = k.cfg.EncryptDescriptions
	scope.KeyCheck = writerValue(k.cipher, k.generation)
	return scope
}

// Release gives the memo entries of a scope made by Scope back to the
// budget, when its client handle is dropped; the scope still works,
// remembering nothing.
func Release(s storage.Scope) {
	for _, codec := range []storage.Codec{s.Users, s.Permissions, s.Descriptions} {
		if l, ok := codec.(*lazyCodec); ok {
			if !l.made.Load() {
				continue
			}
			codec = l.get()
		}
		switch m := codec.(type) {
		case *memoCodec:
			m.release()
		case rotatingCodec:
			m.cur.release()
			m.prev.release()
		}
	}
}

// Generations are the key generations of the values written and, while
// rotating, of the values under the previous key (0 when none).
func (k *Keys) Generations() (current, previous int) { return k.generation, k.previousGen }

// Settings a test may read to see where the store stands.
const (
	SettingCheck         = settingCipherCheck
	SettingSalt          = settingCipherSalt
	SettingRotationLease = settingRotationLease
)

// SetSetting writes one of rolegate_settings (tests set up a store's state with it).
func SetSetting(ctx context.Context, db bun.IDB, key, value string) error {
	return setSetting(ctx, db, key, value)
}

func randomHex() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}
