package cipher_test

import (
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/cipher"
)

// BenchmarkNew measures the PBKDF2 derivation paid once at startup.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		if _, err := cipher.New(passphrase); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkForClient measures deriving a client's subkeys (HKDF) and
// setting up AES: the cost of not caching a ClientCipher.
func BenchmarkForClient(b *testing.B) {
	c := mainCipher()
	for b.Loop() {
		c.ForClient(nsA)
	}
}

var benchInputs = []struct{ name, plaintext string }{
	{"name16", "alice.smith-2024"},
	{"name128", strings.Repeat("x", 128)},
}

func BenchmarkEncrypt(b *testing.B) {
	cc := mainCipher().ForClient(nsA)
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.plaintext)))
			for b.Loop() {
				cc.Encrypt(in.plaintext)
			}
		})
	}
}

func BenchmarkDecrypt(b *testing.B) {
	cc := mainCipher().ForClient(nsA)
	for _, in := range benchInputs {
		stored := cc.Encrypt(in.plaintext)
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.plaintext)))
			for b.Loop() {
				if _, err := cc.Decrypt(stored); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("legacy", func(b *testing.B) {
		for b.Loop() {
			cc.Decrypt("alice.smith-2024")
		}
	})
}
