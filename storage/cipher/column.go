package cipher

import (
	"crypto/hkdf"
	"crypto/sha256"
	"strconv"
	"strings"
)

// Format 2: values bound to their column and client, tagged with the key
// generation.
const (
	aesLabelV2 = "rolegate/cipher/v2/aes" // HKDF info prefix, AES subkey
	macLabelV2 = "rolegate/cipher/v2/mac" // HKDF info prefix, MAC subkey

	// FirstGeneration is the generation of a store's first format-2 key;
	// each key rotation takes the next. Generation 1 is format 1.
	FirstGeneration = 2
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

// GenerationPrefix is the prefix of format-2 values of key generation g:
// "/e" followed by g in decimal and a '/' ("/e2/", "/e3/", ...). The store
// keeps which generation its key has, so that it can find in SQL the
// values a key rotation has still to re-encrypt, and a reader knows which
// key a value needs; the prefix is as short as format 1's.
func GenerationPrefix(g int) string { return "/e" + strconv.Itoa(g) + "/" }

// GenerationOf returns the key generation of a format-2 value, and whether
// stored is one.
func GenerationOf(stored string) (int, bool) {
	if !strings.HasPrefix(stored, "/e") {
		return 0, false
	}
	end := strings.IndexByte(stored[2:], '/')
	if end <= 0 || end > 9 {
		return 0, false
	}
	g, err := strconv.Atoi(stored[2 : 2+end])
	if err != nil || g < FirstGeneration || strconv.Itoa(g) != stored[2:2+end] {
		return 0, false
	}
	return g, true
}

// ForColumn returns the format-2 cipher of one column of one client
// namespace, writing values of key generation g (at least
// FirstGeneration). Its subkeys are derived with HKDF-SHA256 from the
// master keys with info = label || column || 0x00 || namespace, so the
// same name is stored differently per client and per column, and
// deterministically within one (column, client): lookups by equality
// still work. Its Decrypt refuses values without its prefix: there is no
// plain passthrough in format 2, and a value of another generation is
// ErrOtherKey.
func (c *Cipher) ForColumn(namespace []byte, col Column, g int) *ClientCipher {
	if g < FirstGeneration {
		panic("cipher: ForColumn: generation " + strconv.Itoa(g) + " is below FirstGeneration")
	}
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
	cc.prefix = GenerationPrefix(g)
	return cc
}
