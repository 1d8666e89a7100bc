package keyring

import (
	"sync"
	"sync/atomic"

	"github.com/puzpuzpuz/xsync/v3"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
)

// memoSize bounds each memo of a client's codec; a full memo is emptied.
// memoBudget bounds the entries of all clients' memos together: any UUID
// v4 is a valid client key, so per-client bounds alone would let anyone
// grow memory by inventing keys.
const (
	memoSize   = 1 << 16
	memoBudget = 1 << 18
)

// memoBudgetUse counts the entries held by all the memos of one Authz.
type memoBudgetUse struct {
	max  int64
	used atomic.Int64
}

// memoCodec remembers a client's encryptions and decryptions. The cipher
// is deterministic, so a name always has the same stored form, and a
// client's names repeat endlessly: every cold check decrypts the same
// permissions again, every lookup encrypts the same names again. The memo
// turns that work into a map lookup. Only successful results are kept: a
// tampered value is checked, and refused, every time.
//
// Lookups take no lock; remembering does (it is the miss path), so that
// the count of entries against the shared budget stays exact.
type memoCodec struct {
	c        *cipher.ClientCipher
	enc, dec *xsync.MapOf[string, string]
	budget   *memoBudgetUse
	mu       sync.Mutex
	released bool // the client handle was dropped: remember nothing more
}

var _ storage.Codec = (*memoCodec)(nil)

func newMemoCodec(c *cipher.ClientCipher, budget *memoBudgetUse) *memoCodec {
	return &memoCodec{c: c, budget: budget,
		enc: xsync.NewMapOf[string, string](), dec: xsync.NewMapOf[string, string]()}
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
	m.remember(m.enc, plain, v)
	return v
}

func (m *memoCodec) Decrypt(stored string) (string, error) {
	if v, ok := m.dec.Load(stored); ok {
		return v, nil
	}
	v, err := m.c.Decrypt(stored)
	if err != nil {
		return "", err
	}
	m.remember(m.dec, stored, v)
	return v, nil
}

// remember keeps k -> v, first emptying the memo when it is full or when
// all memos together are at the budget (so a client inventing names, or
// many clients at once, cannot hold more).
func (m *memoCodec) remember(memo *xsync.MapOf[string, string], k, v string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.released {
		return
	}
	if memo.Size() >= memoSize || m.budget.used.Load() >= m.budget.max {
		m.budget.used.Add(-int64(memo.Size()))
		memo.Clear()
	}
	if _, loaded := memo.LoadOrStore(k, v); !loaded {
		m.budget.used.Add(1)
	}
}

// release gives the memo's entries back to the budget when its client
// handle is dropped; the handle still works, remembering nothing.
func (m *memoCodec) release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.released {
		return
	}
	m.released = true
	m.budget.used.Add(-int64(m.enc.Size() + m.dec.Size()))
	m.enc.Clear()
	m.dec.Clear()
}

// lazyCodec makes its codec on first use.
type lazyCodec struct {
	get  func() storage.Codec
	made atomic.Bool
}

func (l *lazyCodec) codec() storage.Codec {
	if !l.made.Load() {
		l.made.Store(true)
	}
	return l.get()
}

func (l *lazyCodec) Encrypt(p string) string               { return l.codec().Encrypt(p) }
func (l *lazyCodec) Decrypt(stored string) (string, error) { return l.codec().Decrypt(stored) }
