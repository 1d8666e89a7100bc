package cipher

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Format 2: values bound to their column and client, tagged with the key.
const (
	aesLabelV2 = "rolegate/cipher/v2/aes" // HKDF info prefix, AES subkey
	macLabelV2 = "rolegate/cipher/v2/mac" // HKDF info prefix, MAC subkey
	kidLabel   = "rolegate/cipher/v2/kid" // message of the key id

	// PrefixV2 starts every format-2 value; the key id (KeyIDSize hex
	// digits) and a '/' follow it.
	PrefixV2 = "/e2"
	// KeyIDSize is the length of a key id, in hex digits.
	KeyIDSize = 8
)

// Column names the kind of value a format-2 ciphertext holds. It goes into
// the subkey derivation together with the client namespace, so a value
// copied from one column to another (a description into a permission, a
// user name into a permission), or from one client to another, does not
// decrypt: it fails with ErrTampered instead of granting anything.
type Column string

// The columns rolegate encrypts. A member's user name is one column
// wherever it is stored (global and scoped memberships, the change log):
// lookups compare those stored forms with each other.
const (
	ColumnUser        Column = "user"
	ColumnPermission  Column = "permission"
	ColumnDescription Column = "description"
)

// KeyID returns the key id of c: the first KeyIDSize hex digits of
// HMAC-SHA256(master MAC key, "rolegate/cipher/v2/kid"). Every format-2
// value carries it after PrefixV2, so that the store can tell, in SQL, which
// values a key rotation has still to re-encrypt, and a reader knows which
// key a value needs.
func (c *Cipher) KeyID() string { return c.kid }

// KeyPrefix is the prefix of the format-2 values written under c:
// PrefixV2, the key id and a '/'.
func (c *Cipher) KeyPrefix() string { return PrefixV2 + c.kid + "/" }

func keyID(macKey []byte) string {
	m := hmac.New(sha256.New, macKey)
	m.Write([]byte(kidLabel))
	return hex.EncodeToString(m.Sum(nil))[:KeyIDSize]
}

// ForColumn returns the format-2 cipher of one column of one client
// namespace. Its subkeys are derived with HKDF-SHA256 from the master keys
// with info = label || column || 0x00 || namespace, so the same name is
// stored differently per client and per column, and deterministically
// within one (column, client): lookups by equality still work. Its
// Decrypt refuses values without the key's prefix (there is no plain
// passthrough in format 2).
func (c *Cipher) ForColumn(namespace []byte, col Column) *ClientCipher {
	info := func(label string) string { return label + string(col) + "\x00" + string(namespace) }
	aesKey, err := hkdf.Key(sha256.New, c.aesKey, nil, info(aesLabelV2), keySize)
	if err != nil {
		panic("cipher: hkdf: " + err.Error())
	}
	macKey, err := hkdf.Key(sha256.New, c.macKey, nil, info(macLabelV2), keySize)
	if err != nil {
		panic("cipher: hkdf: " + err.Error())
	}
	cc := newClientCipher(aesKey, macKey)
	cc.prefix = c.KeyPrefix()
	return cc
}

// KeyIDOf returns the key id of a format-2 value, and whether stored is
// one.
func KeyIDOf(stored string) (string, bool) {
	if !strings.HasPrefix(stored, PrefixV2) || len(stored) < len(PrefixV2)+KeyIDSize+1 ||
		stored[len(PrefixV2)+KeyIDSize] != '/' {
		return "", false
	}
	return stored[len(PrefixV2) : len(PrefixV2)+KeyIDSize], true
}
