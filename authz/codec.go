package authz

import (
	"github.com/puzpuzpuz/xsync/v3"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
)

// memoSize bounds each memo of a client's codec; a full memo is emptied.
const memoSize = 1 << 16

// memoCodec remembers a client's encryptions and decryptions. The cipher
// is deterministic, so a name always has the same stored form, and a
// client's names repeat endlessly: every cold check decrypts the same
// permissions again, every lookup encrypts the same names again. The memo
// turns that work into a map lookup. Only successful results are kept: a
// tampered value is checked, and refused, every time.
type memoCodec struct {
	c        *cipher.ClientCipher
	enc, dec *xsync.MapOf[string, string]
}

var _ storage.Codec = (*memoCodec)(nil)

func newMemoCodec(c *cipher.ClientCipher) *memoCodec {
	return &memoCodec{c: c, enc: xsync.NewMapOf[string, string](), dec: xsync.NewMapOf[string, string]()}
}

func (m *memoCodec) Encrypt(plain string) string {
	if v, ok := m.enc.Load(plain); ok {
		return v
	}
	v := m.c.Encrypt(plain)
	// Not remembered for Decrypt as well: most encryptions are of user
	// names being looked up, which are rarely read back, and they would
	// crowd out of the decryption memo the permission names every cold
	// check decrypts.
	remember(m.enc, plain, v)
	return v
}

func (m *memoCodec) Decrypt(stored string) (string, error) {
	if !cipher.IsEncrypted(stored) {
		return stored, nil
	}
	if v, ok := m.dec.Load(stored); ok {
		return v, nil
	}
	v, err := m.c.Decrypt(stored)
	if err != nil {
		return "", err
	}
	remember(m.dec, stored, v)
	return v, nil
}

func remember(memo *xsync.MapOf[string, string], k, v string) {
	if memo.Size() >= memoSize {
		memo.Clear()
	}
	memo.Store(k, v)
}
