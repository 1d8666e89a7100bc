package cipher

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
)

// Derivation parameters. Changing any of them changes every key, so they
// are part of the stored format: a change needs a new Prefix.
const (
	salt       = "rolegate/cipher/v1" // PBKDF2 salt, fixed so replicas agree
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

// New derives the master keys from passphrase with PBKDF2-HMAC-SHA256
// (100,000 iterations, fixed salt; see the package documentation). It is
// slow on purpose, tens of milliseconds, to make guessing the passphrase
// from a copy of the database expensive; call it once, never per
// operation. An empty passphrase is an error.
func New(passphrase string) (*Cipher, error) {
	if passphrase == "" {
		return nil, errors.New("cipher: empty passphrase")
	}
	dk, err := pbkdf2.Key(sha256.New, passphrase, []byte(salt), iterations, 2*keySize)
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

// ForClient returns the cipher of one client namespace (the SHA-256 digest
// of the normalised client key). Its subkeys are derived with HKDF-SHA256,
// so the same name under two clients is stored differently and equality
// leaks only within one client. It costs a few microseconds; callers that
// encrypt often for the same client may keep the result.
func (c *Cipher) ForClient(namespace []byte) *ClientCipher {
	aesKey := deriveSubkey(c.aesKey, aesLabel, namespace)
	macKey := deriveSubkey(c.macKey, macLabel, namespace)
	return newClientCipher(aesKey, macKey)
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
