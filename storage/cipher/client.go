package cipher

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"hash"
	"strings"
	"sync"
)

// Prefix starts every value written by Encrypt. '/' cannot occur in a
// valid rolegate name, so it tells encrypted values from legacy plaintext
// names unambiguously; "1" is the format version.
const Prefix = "/e1/"

const ivSize = aes.BlockSize // 16 bytes of HMAC-SHA256 output

var b64 = base64.RawURLEncoding.Strict()

// ClientCipher encrypts and decrypts the stored values of one client
// namespace. It is immutable apart from an internal pool and safe for
// concurrent use. Obtain it from Cipher.ForClient.
type ClientCipher struct {
	prefix string // Prefix (format 1) or the generation's format-2 prefix
	legacy bool   // format 1: a value without the prefix is plaintext
	block  cipher.Block
	macs   sync.Pool // of hash.Hash: HMAC-SHA256 keyed with the MAC subkey
}

func newClientCipher(aesKey, macKey []byte) *ClientCipher {
	block, err := aes.NewCipher(aesKey)
	if err != nil {
		// Only a key of the wrong length fails, and ours is 32 bytes.
		panic("cipher: aes: " + err.Error())
	}
	cc := &ClientCipher{block: block}
	cc.macs.New = func() any { return hmac.New(sha256.New, macKey) }
	return cc
}

// syntheticIV writes the first 16 bytes of HMAC-SHA256(macKey, p) to dst.
func (cc *ClientCipher) syntheticIV(dst *[ivSize]byte, p []byte) {
	m := cc.macs.Get().(hash.Hash)
	m.Reset()
	m.Write(p)
	var sum [sha256.Size]byte
	copy(dst[:], m.Sum(sum[:0]))
	cc.macs.Put(m)
}

// Encrypt returns the stored form of plaintext: Prefix followed by the
// unpadded base64url encoding of IV || AES-256-CTR ciphertext, where the
// IV is the first 16 bytes of HMAC-SHA256 over the plaintext.
//
// It is deterministic, so equal plaintexts give equal stored values and
// the store can look them up by equality; that leaks equality (and
// length) to a reader of the database, by design. The result is printable
// ASCII, exactly len(Prefix) + ceil(4*(16+len(plaintext))/3) bytes long:
// 196 bytes for a name of 128 ASCII characters, 708 for 128 characters of
// four bytes each.
func (cc *ClientCipher) Encrypt(plaintext string) string {
	raw := make([]byte, ivSize+len(plaintext))
	iv, body := (*[ivSize]byte)(raw[:ivSize]), raw[ivSize:]
	copy(body, plaintext)
	cc.syntheticIV(iv, body)
	cipher.NewCTR(cc.block, iv[:]).XORKeyStream(body, body)

	out := make([]byte, len(cc.prefix), len(cc.prefix)+b64.EncodedLen(len(raw)))
	copy(out, cc.prefix)
	return string(b64.AppendEncode(out, raw))
}

// Decrypt returns the plaintext of a stored value.
//
// For a format-1 cipher (ForClient), a value without Prefix is legacy
// plaintext, written before encryption was turned on, and is returned
// unchanged with a nil error. A format-2 cipher (ForColumn) has no such
// passthrough: a value without its prefix is ErrMalformed, or ErrOtherKey
// when it is a format-2 value of another key generation. A value with
// the prefix that cannot be decoded gives ErrMalformed; one that decodes
// but whose IV does not match the HMAC of the recovered plaintext (wrong
// key, another client's value, or tampering) gives ErrTampered. On error
// the returned string is always empty: never garbage.
func (cc *ClientCipher) Decrypt(stored string) (string, error) {
	if !strings.HasPrefix(stored, cc.prefix) {
		switch {
		case cc.legacy:
			return stored, nil
		case isGeneration(stored):
			return "", ErrOtherKey
		}
		return "", ErrMalformed
	}
	enc := stored[len(cc.prefix):]
	// The decoder skips CR and LF; refuse them so that each plaintext has
	// exactly one stored form (Strict refuses non-zero trailing bits).
	if strings.ContainsAny(enc, "\r\n") {
		return "", ErrMalformed
	}
	raw, err := b64.DecodeString(enc)
	if err != nil || len(raw) < ivSize {
		return "", ErrMalformed
	}
	iv, ct := raw[:ivSize], raw[ivSize:]
	cipher.NewCTR(cc.block, iv).XORKeyStream(ct, ct) // ct now holds the plaintext

	var want [ivSize]byte
	cc.syntheticIV(&want, ct)
	if !hmac.Equal(want[:], iv) {
		return "", ErrTampered
	}
	return string(ct), nil
}

// IsEncrypted reports whether stored carries an encryption prefix (format
// 1, "/e1/", or format 2, "/e<generation>/"), that is, whether it is not
// plaintext. It does not check that the value is well formed.
func IsEncrypted(stored string) bool {
	return strings.HasPrefix(stored, Prefix) || isGeneration(stored)
}

func isGeneration(stored string) bool {
	_, ok := GenerationOf(stored)
	return ok
}
