package cipher

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Derivation parameters. Changing any of them changes every key, so they
// are part of the stored format: a change needs a new Prefix.
const (
	legacySalt = "rolegate/cipher/v1" // PBKDF2 salt of stores made before per-store salts
	iterations = 100_000              // PBKDF2-HMAC-SHA256 iterations
	keySize    = 32                   // AES-256 key and HMAC-SHA256 key

	aesLabel   = "rolegate/cipher/v1/aes"   // HKDF info prefix, AES subkey
	macLabel   = "rolegate/cipher/v1/mac"   // HKDF info prefix, MAC subkey
	checkLabel = "rolegate/cipher/v1/check" // message of the key check value
)

// Cipher holds the master keys derived from a passphrase. It is immutable
// and safe for concurrent use. Create it once at startup with New: the
// derivation is deliberately slow.
type Cipher struct {
	aesKey []byte
	macKey []byte
	check  string
}

// MinPassphraseLen is the shortest passphrase NewSalted accepts, in
// characters.
const MinPassphraseLen = 16

// SaltSize is the size of the random per-store salt NewSalt makes.
const SaltSize = 16

// NewSalt returns a random per-store salt for NewSalted. The store keeps
// it beside the key check value, so every replica derives the same keys.
func NewSalt() ([]byte, error) {
	b := make([]byte, SaltSize)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("cipher: salt: %w", err)
	}
	return b, nil
}

// NewSalted derives the master keys from passphrase and the store's own
// salt with PBKDF2-HMAC-SHA256 (100,000 iterations). A salt of its own per
// store means a guess at the passphrase costs PBKDF2 per store, not once
// for every installation. It is slow on purpose, tens of milliseconds;
// call it once, never per operation. A passphrase under MinPassphraseLen
// characters or a salt under SaltSize bytes is an error.
func NewSalted(passphrase string, salt []byte) (*Cipher, error) {
	if n := utf8.RuneCountInString(passphrase); n < MinPassphraseLen {
		return nil, fmt.Errorf("cipher: the passphrase has %d characters; at least %d are required", n, MinPassphraseLen)
	}
	if len(salt) < SaltSize {
		return nil, fmt.Errorf("cipher: the salt has %d bytes; at least %d are required", len(salt), SaltSize)
	}
	return derive(passphrase, salt)
}

// New derives the master keys as stores made before per-store salts did:
// PBKDF2-HMAC-SHA256 (100,000 iterations) with the fixed application salt,
// and any non-empty passphrase. It exists so that those stores keep
// opening; a new store uses NewSalted.
func New(passphrase string) (*Cipher, error) {
	if passphrase == "" {
		return nil, errors.New("cipher: empty passphrase")
	}
	return derive(passphrase, []byte(legacySalt))
}

func derive(passphrase string, salt []byte) (*Cipher, error) {
	dk, err := pbkdf2.Key(sha256.New, passphrase, salt, iterations, 2*keySize)
	if err != nil {
		return nil, fmt.Errorf("cipher: deriving keys: %w", err)
	}
	c := &Cipher{aesKey: dk[:keySize:keySize], macKey: dk[keySize:]}
	m := hmac.New(sha256.New, c.macKey)
	m.Write([]byte(checkLabel))
	c.check = hex.EncodeToString(m.Sum(nil))
	return c, nil
}

// CheckValue returns the key check value of c: 64 hex digits that differ
// between passphrases and reveal nothing about the keys. Store it beside
// the encrypted data and compare it at startup, so that starting with the
// wrong passphrase is refused up front instead of failing row by row.
func (c *Cipher) CheckValue() string { return c.check }

// ForClient returns the format-1 cipher of one client namespace (the SHA-256 digest
// of the normalised client key). Its subkeys are derived with HKDF-SHA256,
// so the same name under two clients is stored differently and equality
// leaks only within one client. It costs a few microseconds; callers that
// encrypt often for the same client may keep the result.
func (c *Cipher) ForClient(namespace []byte) *ClientCipher {
	aesKey := deriveSubkey(c.aesKey, aesLabel, namespace)
	macKey := deriveSubkey(c.macKey, macLabel, namespace)
	cc := newClientCipher(aesKey, macKey)
	cc.prefix, cc.legacy = Prefix, true
	return cc
}

// deriveSubkey is HKDF-SHA256 with an empty salt and info = label ||
// namespace. The master key is already uniformly random, so the extract
// step adds nothing but costs one HMAC; it is kept so that the derivation
// is plain RFC 5869 and checkable with any HKDF implementation.
func deriveSubkey(master []byte, label string, namespace []byte) []byte {
	key, err := hkdf.Key(sha256.New, master, nil, label+string(namespace), keySize)
	if err != nil {
		// Only an out-of-range length fails, and keySize is in range.
		panic("cipher: hkdf: " + err.Error())
	}
	return key
}
