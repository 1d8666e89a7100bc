package cipher_test

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/rolegate/rolegate/storage/cipher"
)

const (
	passphrase      = "correct horse battery staple"
	otherPassphrase = "Tr0ub4dor&3"
)

// New is slow by design; derive each test cipher once.
var (
	mainCipher  = sync.OnceValue(func() *cipher.Cipher { return mustNew(passphrase) })
	otherCipher = sync.OnceValue(func() *cipher.Cipher { return mustNew(otherPassphrase) })
)

func mustNew(p string) *cipher.Cipher {
	c, err := cipher.New(p)
	if err != nil {
		panic(err)
	}
	return c
}

func namespace(clientKey string) []byte {
	sum := sha256.Sum256([]byte(clientKey))
	return sum[:]
}

var (
	nsA = namespace("3f2b8c1e-9a4d-4e7b-8c2f-1d5e6a7b8c9d")
	nsB = namespace("c0ffee00-1234-4abc-9def-0123456789ab")
)

var plaintexts = []string{
	"alice", "edit", "a", "Zoë Åström", "日本語のユーザー", "👩‍💻 dev-ops",
	"Can edit notes, and delete them.", strings.Repeat("x", 128),
	strings.Repeat("名", 128), "",
}

func TestNewEmptyPassphrase(t *testing.T) {
	if c, err := cipher.New(""); err == nil || c != nil {
		t.Fatalf("New(\"\") = %v, %v; want nil, error", c, err)
	}
}

func TestRoundTrip(t *testing.T) {
	cc := mainCipher().ForClient(nsA)
	for _, p := range plaintexts {
		stored := cc.Encrypt(p)
		if !cipher.IsEncrypted(stored) {
			t.Errorf("IsEncrypted(Encrypt(%q)) = false", p)
		}
		if strings.Contains(stored, p) && p != "" {
			t.Errorf("Encrypt(%q) = %q contains the plaintext", p, stored)
		}
		for i := 0; i < len(stored); i++ {
			if stored[i] < 0x21 || stored[i] > 0x7e {
				t.Errorf("Encrypt(%q) = %q: byte %#x is not printable ASCII", p, stored, stored[i])
				break
			}
		}
		got, err := cc.Decrypt(stored)
		if err != nil || got != p {
			t.Errorf("Decrypt(Encrypt(%q)) = %q, %v", p, got, err)
		}
	}
}

func TestDeterministic(t *testing.T) {
	// Equality lookups depend on this: another ClientCipher for the same
	// namespace, and another Cipher from the same passphrase (a replica),
	// must write the same value.
	a := mainCipher().ForClient(nsA)
	b := mainCipher().ForClient(nsA)
	replica := mustNew(passphrase).ForClient(nsA)
	for _, p := range plaintexts {
		x := a.Encrypt(p)
		if y := a.Encrypt(p); x != y {
			t.Errorf("Encrypt(%q) twice: %q, %q", p, x, y)
		}
		if y := b.Encrypt(p); x != y {
			t.Errorf("Encrypt(%q) with a second ForClient: %q, %q", p, x, y)
		}
		if y := replica.Encrypt(p); x != y {
			t.Errorf("Encrypt(%q) on a replica: %q, %q", p, x, y)
		}
	}
}

func TestDistinctPlaintextsDistinctValues(t *testing.T) {
	cc := mainCipher().ForClient(nsA)
	seen := map[string]string{}
	for _, p := range append(plaintexts, "Alice", "alice ", "edit2") {
		s := cc.Encrypt(p)
		if q, ok := seen[s]; ok {
			t.Errorf("Encrypt(%q) == Encrypt(%q) == %q", p, q, s)
		}
		seen[s] = p
	}
}

func TestNamespacesDiffer(t *testing.T) {
	a, b := mainCipher().ForClient(nsA), mainCipher().ForClient(nsB)
	for _, p := range plaintexts {
		sa, sb := a.Encrypt(p), b.Encrypt(p)
		if sa == sb {
			t.Errorf("Encrypt(%q) is %q under both namespaces", p, sa)
		}
		if got, err := b.Decrypt(sa); !errors.Is(err, cipher.ErrTampered) || got != "" {
			t.Errorf("other namespace: Decrypt = %q, %v; want \"\", ErrTampered", got, err)
		}
	}
}

func TestPassphrasesDiffer(t *testing.T) {
	a, b := mainCipher().ForClient(nsA), otherCipher().ForClient(nsA)
	for _, p := range plaintexts {
		if sa, sb := a.Encrypt(p), b.Encrypt(p); sa == sb {
			t.Errorf("Encrypt(%q) is %q under both passphrases", p, sa)
		}
	}
}

func TestWrongKey(t *testing.T) {
	a, b := mainCipher().ForClient(nsA), otherCipher().ForClient(nsA)
	for _, p := range plaintexts {
		got, err := b.Decrypt(a.Encrypt(p))
		if !errors.Is(err, cipher.ErrTampered) || got != "" {
			t.Errorf("wrong key: Decrypt(Encrypt(%q)) = %q, %v; want \"\", ErrTampered", p, got, err)
		}
	}
}

func TestLegacyPlaintextPassesThrough(t *testing.T) {
	cc := mainCipher().ForClient(nsA)
	for _, p := range []string{"alice", "e1", "e1/", " /e1/", "\\e1\\", "Zoë", "", "/", "/e2/abc"} {
		if p != "/" && p != "/e2/abc" && cipher.IsEncrypted(p) {
			t.Errorf("IsEncrypted(%q) = true", p)
		}
		got, err := cc.Decrypt(p)
		if err != nil || got != p {
			t.Errorf("Decrypt(%q) = %q, %v; want it unchanged", p, got, err)
		}
	}
}

// rawOf returns the decoded IV || ciphertext of a stored value.
func rawOf(t *testing.T, stored string) []byte {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(stored, cipher.Prefix))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func storedOf(raw []byte) string { return cipher.Prefix + base64.RawURLEncoding.EncodeToString(raw) }

func TestTampered(t *testing.T) {
	cc := mainCipher().ForClient(nsA)
	good := cc.Encrypt("editor-in-chief")
	raw := rawOf(t, good)
	flip := func(i int, bit byte) string {
		r := append([]byte(nil), raw...)
		r[i] ^= bit
		return storedOf(r)
	}
	tests := []struct {
		name   string
		stored string
		want   error
	}{
		{"flip first IV bit", flip(0, 0x01), cipher.ErrTampered},
		{"flip last IV bit", flip(15, 0x80), cipher.ErrTampered},
		{"flip first ciphertext bit", flip(16, 0x01), cipher.ErrTampered},
		{"flip last ciphertext bit", flip(len(raw)-1, 0x80), cipher.ErrTampered},
		{"drop last ciphertext byte", storedOf(raw[:len(raw)-1]), cipher.ErrTampered},
		{"IV only", storedOf(raw[:16]), cipher.ErrTampered},
		{"extra byte", storedOf(append(append([]byte(nil), raw...), 'x')), cipher.ErrTampered},
		{"shorter than an IV", storedOf(raw[:15]), cipher.ErrMalformed},
		{"prefix only", cipher.Prefix, cipher.ErrMalformed},
		{"truncated text", good[:len(good)-1], cipher.ErrMalformed}, // leaves a dangling base64 digit, or drops a byte
		{"bad base64 character", cipher.Prefix + "!!!!" + good[len(cipher.Prefix)+4:], cipher.ErrMalformed},
		{"standard base64 alphabet", good[:len(good)-1] + "+", cipher.ErrMalformed},
		{"padded", good + strings.Repeat("=", (4-(len(good)-len(cipher.Prefix))%4)%4+4), cipher.ErrMalformed},
		{"newline inside", good[:10] + "\n" + good[10:], cipher.ErrMalformed},
		{"carriage return at end", good + "\r", cipher.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.stored == good {
				t.Fatal("test case did not change the value")
			}
			got, err := cc.Decrypt(tt.stored)
			if got != "" || err == nil {
				t.Fatalf("Decrypt(%q) = %q, %v; want an error and no plaintext", tt.stored, got, err)
			}
			// A truncated text is ErrMalformed or ErrTampered depending on
			// where the base64 groups end; both are refusals.
			if tt.name == "truncated text" {
				if !errors.Is(err, cipher.ErrMalformed) && !errors.Is(err, cipher.ErrTampered) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Decrypt(%q): err = %v, want %v", tt.stored, err, tt.want)
			}
		})
	}
}

func TestNonCanonicalBase64Refused(t *testing.T) {
	// Each plaintext has exactly one stored form: non-zero trailing bits in
	// the last base64 digit are refused rather than decoded.
	cc := mainCipher().ForClient(nsA)
	for _, p := range plaintexts {
		good := cc.Encrypt(p)
		if (len(good)-len(cipher.Prefix))%4 == 0 {
			continue // no spare bits in the last digit
		}
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
		last := strings.IndexByte(alphabet, good[len(good)-1])
		bad := good[:len(good)-1] + string(alphabet[last^1])
		if got, err := cc.Decrypt(bad); err == nil || got != "" {
			t.Errorf("Decrypt(%q) = %q, %v; want an error", bad, got, err)
		}
	}
}

func TestCheckValue(t *testing.T) {
	a, b := mainCipher().CheckValue(), otherCipher().CheckValue()
	if a == b {
		t.Fatalf("CheckValue is %s for both passphrases", a)
	}
	if again := mustNew(passphrase).CheckValue(); again != a {
		t.Fatalf("CheckValue changed between two New with the same passphrase: %s, %s", a, again)
	}
	if len(a) != 64 || strings.Trim(a, "0123456789abcdef") != "" {
		t.Fatalf("CheckValue = %q, want 64 lower-case hex digits", a)
	}
	if strings.Contains(a, passphrase) {
		t.Fatal("CheckValue contains the passphrase")
	}
	// It is not the value of any plaintext under any client.
	for _, p := range plaintexts {
		if strings.Contains(mainCipher().ForClient(nsA).Encrypt(p), a[:16]) {
			t.Fatalf("CheckValue overlaps Encrypt(%q)", p)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	c := mainCipher()
	shared := c.ForClient(nsA)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			own := c.ForClient(nsB)
			for i := 0; i < 200; i++ {
				p := plaintexts[(g+i)%len(plaintexts)]
				for _, cc := range []*cipher.ClientCipher{shared, own} {
					got, err := cc.Decrypt(cc.Encrypt(p))
					if err != nil || got != p {
						t.Errorf("concurrent round trip of %q = %q, %v", p, got, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

func TestEncryptedLength(t *testing.T) {
	// Storage sizes its columns from this: 128 characters of at most 4
	// bytes each must fit.
	cc := mainCipher().ForClient(nsA)
	p := strings.Repeat("😀", 128)
	if utf8.RuneCountInString(p) != 128 {
		t.Fatal("bad test input")
	}
	s := cc.Encrypt(p)
	if want := len(cipher.Prefix) + base64.RawURLEncoding.EncodedLen(16+len(p)); len(s) != want {
		t.Fatalf("len(Encrypt(128 four-byte runes)) = %d, want %d", len(s), want)
	}
	if len(s) != 708 {
		t.Fatalf("len(Encrypt(128 four-byte runes)) = %d, documented as 708", len(s))
	}
	if n := len(cc.Encrypt(strings.Repeat("x", 128))); n != 196 {
		t.Fatalf("len(Encrypt(128 ASCII characters)) = %d, documented as 196", n)
	}
}

// A new store's keys need a passphrase of MinPassphraseLen characters and
// a salt of its own: two stores with the same passphrase get unrelated
// keys, and neither matches the fixed salt of older stores.
func TestNewSalted(t *testing.T) {
	const pass = "sixteen chars ok"
	for _, short := range []string{"", "hunter2", "fifteen chars!!", "ééééééééééééééé"} {
		if _, err := cipher.NewSalted(short, make([]byte, cipher.SaltSize)); err == nil {
			t.Errorf("passphrase %q accepted", short)
		}
	}
	if _, err := cipher.NewSalted(pass, make([]byte, cipher.SaltSize-1)); err == nil {
		t.Error("a short salt was accepted")
	}
	s1, err := cipher.NewSalt()
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := cipher.NewSalt()
	if len(s1) != cipher.SaltSize || string(s1) == string(s2) {
		t.Fatalf("salts %x and %x", s1, s2)
	}
	a, err := cipher.NewSalted(pass, s1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := cipher.NewSalted(pass, s2)
	again, _ := cipher.NewSalted(pass, s1)
	legacy, _ := cipher.New(pass)
	if a.CheckValue() == b.CheckValue() || a.CheckValue() == legacy.CheckValue() {
		t.Fatal("two salts (or a salt and the legacy salt) give the same keys")
	}
	if a.CheckValue() != again.CheckValue() {
		t.Fatal("one salt gives two keys")
	}
	ns := []byte("namespace")
	if a.ForClient(ns).Encrypt("alice") == b.ForClient(ns).Encrypt("alice") {
		t.Fatal("two stores store one name alike")
	}
}

func TestColumnBinding(t *testing.T) {
	c := mainCipher()
	user, perm := c.ForColumn(nsA, cipher.ColumnUser, 2), c.ForColumn(nsA, cipher.ColumnPermission, 2)
	other := c.ForColumn(nsB, cipher.ColumnPermission, 2)
	v := user.Encrypt("alice")
	if v != c.ForColumn(nsA, cipher.ColumnUser, 2).Encrypt("alice") {
		t.Fatal("not deterministic per (column, client)")
	}
	if !strings.HasPrefix(v, "/e2/") || !cipher.IsEncrypted(v) {
		t.Fatalf("%q does not start with /e2/", v)
	}
	if got, err := user.Decrypt(v); err != nil || got != "alice" {
		t.Fatalf("Decrypt = %q, %v", got, err)
	}
	for name, cc := range map[string]*cipher.ClientCipher{"other column": perm, "other client": other} {
		if got, err := cc.Decrypt(v); !errors.Is(err, cipher.ErrTampered) || got != "" {
			t.Errorf("%s: Decrypt = %q, %v; want ErrTampered", name, got, err)
		}
	}
	if _, err := user.Decrypt("alice"); !errors.Is(err, cipher.ErrMalformed) {
		t.Errorf("plain value: %v, want ErrMalformed", err)
	}
	next := otherCipher().ForColumn(nsA, cipher.ColumnUser, 3)
	if _, err := next.Decrypt(v); !errors.Is(err, cipher.ErrOtherKey) {
		t.Errorf("other generation: %v, want ErrOtherKey", err)
	}
	if _, err := otherCipher().ForColumn(nsA, cipher.ColumnUser, 2).Decrypt(v); !errors.Is(err, cipher.ErrTampered) {
		t.Errorf("other key, same generation: %v, want ErrTampered", err)
	}
	for s, want := range map[string]int{v: 2, "/e13/x": 13, "/e1/x": 0, "/e02/x": 0, "/e/x": 0, "/ex/": 0, "alice": 0} {
		if g, ok := cipher.GenerationOf(s); g != want || ok != (want != 0) {
			t.Errorf("GenerationOf(%q) = %d, %v; want %d", s, g, ok, want)
		}
	}
}
