package loginx

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
)

// wrapLabel derives the AES key from the host's wrap key, and binds the
// sealed value to its purpose (GCM additional data).
const wrapLabel = "rolegate/loginx/jwt-secret-wrap/v1"

// wrapper seals the generated signing secret under a key the host supplies
// (Config.SecretWrapKey): AES-256-GCM with a random nonce, the key being
// HMAC-SHA256(wrap key, label). The wrap key is expected to be random and
// at least 32 bytes, so no slow derivation is needed.
type wrapper struct{ aead cipher.AEAD }

func newWrapper(key string) (*wrapper, error) {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(wrapLabel))
	block, err := aes.NewCipher(m.Sum(nil))
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &wrapper{aead: aead}, nil
}

func (w *wrapper) seal(plain []byte) (string, error) {
	nonce := make([]byte, w.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := w.aead.Seal(nonce, nonce, plain, []byte(wrapLabel))
	return base64.RawURLEncoding.EncodeToString(out), nil
}

func (w *wrapper) open(sealed string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(sealed)
	if err != nil || len(b) < w.aead.NonceSize()+w.aead.Overhead() {
		return nil, errors.New("malformed")
	}
	n := w.aead.NonceSize()
	return w.aead.Open(nil, b[:n], b[n:], []byte(wrapLabel))
}
