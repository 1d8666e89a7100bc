package cipher_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/cipher"
)

// FuzzRoundTrip checks that every string, valid UTF-8 or not, survives
// Encrypt then Decrypt, is recognised as encrypted, encrypts the same way
// twice, and does not decrypt under another client.
func FuzzRoundTrip(f *testing.F) {
	for _, p := range plaintexts {
		f.Add(p)
	}
	f.Add("/e1/")
	f.Add("\xff\xfe invalid UTF-8")
	a, b := mainCipher().ForClient(nsA), mainCipher().ForClient(nsB)
	f.Fuzz(func(t *testing.T, p string) {
		s := a.Encrypt(p)
		if !cipher.IsEncrypted(s) {
			t.Fatalf("IsEncrypted(Encrypt(%q)) = false", p)
		}
		if again := a.Encrypt(p); again != s {
			t.Fatalf("Encrypt(%q) not deterministic: %q, %q", p, s, again)
		}
		got, err := a.Decrypt(s)
		if err != nil || got != p {
			t.Fatalf("Decrypt(Encrypt(%q)) = %q, %v", p, got, err)
		}
		if got, err := b.Decrypt(s); !errors.Is(err, cipher.ErrTampered) || got != "" {
			t.Fatalf("other client: Decrypt(Encrypt(%q)) = %q, %v; want ErrTampered", p, got, err)
		}
	})
}

// FuzzDecrypt checks that Decrypt never panics and never returns garbage:
// a value without the prefix comes back unchanged, a refused value comes
// back empty, and an accepted encrypted value is exactly the encryption of
// what it decrypts to (so each plaintext has one stored form).
func FuzzDecrypt(f *testing.F) {
	cc := mainCipher().ForClient(nsA)
	for _, p := range plaintexts {
		s := cc.Encrypt(p)
		f.Add(s)
		f.Add(s[:len(s)-1])
		f.Add(s + "A")
		f.Add(strings.TrimPrefix(s, cipher.Prefix))
	}
	f.Add(cipher.Prefix)
	f.Add(cipher.Prefix + "====")
	f.Add(cipher.Prefix + "\n\r")
	f.Add("alice")
	f.Fuzz(func(t *testing.T, stored string) {
		got, err := cc.Decrypt(stored)
		switch {
		case !strings.HasPrefix(stored, cipher.Prefix): // format 1 passes anything else through
			if err != nil || got != stored {
				t.Fatalf("legacy Decrypt(%q) = %q, %v; want it unchanged", stored, got, err)
			}
		case err != nil:
			if got != "" {
				t.Fatalf("Decrypt(%q) = %q with error %v", stored, got, err)
			}
			if !errors.Is(err, cipher.ErrMalformed) && !errors.Is(err, cipher.ErrTampered) {
				t.Fatalf("Decrypt(%q): unexpected error %v", stored, err)
			}
		default:
			if again := cc.Encrypt(got); again != stored {
				t.Fatalf("Decrypt(%q) = %q, which encrypts to %q", stored, got, again)
			}
		}
	})
}
