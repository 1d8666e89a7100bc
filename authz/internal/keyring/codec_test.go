package keyring

import (
	"strconv"
	"testing"

	"github.com/rolegate/rolegate/storage/cipher"
)

// The memos of all clients together stay within their budget, answers
// stay right when a memo is emptied, and a dropped client's memo gives its
// entries back.
func TestMemoBudget(t *testing.T) {
	c, err := cipher.New("a passphrase of enough characters")
	if err != nil {
		t.Fatal(err)
	}
	budget := &memoBudgetUse{max: 100}
	a := newMemoCodec(c.ForClient([]byte("a")), budget)
	b := newMemoCodec(c.ForClient([]byte("b")), budget)
	var stored []string
	for i := range 80 {
		stored = append(stored, a.Encrypt("name-"+strconv.Itoa(i)))
	}
	if got := budget.used.Load(); got != 80 {
		t.Fatalf("80 encryptions hold %d entries", got)
	}
	for i := range 500 {
		b.Encrypt("other-" + strconv.Itoa(i))
		if got := budget.used.Load(); got > budget.max {
			t.Fatalf("after %d more encryptions the memos hold %d entries, over the budget of %d", i+1, got, budget.max)
		}
	}
	for i, s := range stored { // a's memo was emptied meanwhile, or not: the same answers
		if p, err := a.Decrypt(s); err != nil || p != "name-"+strconv.Itoa(i) {
			t.Fatalf("Decrypt = %q, %v", p, err)
		}
		if again := a.Encrypt("name-" + strconv.Itoa(i)); again != s {
			t.Fatalf("Encrypt changed its answer: %q then %q", s, again)
		}
	}
	held := int64(a.enc.Size() + a.dec.Size() + b.enc.Size() + b.dec.Size())
	if got := budget.used.Load(); got != held {
		t.Fatalf("budget counts %d entries, the memos hold %d", got, held)
	}
	a.release()
	if got, want := budget.used.Load(), int64(b.enc.Size()+b.dec.Size()); got != want {
		t.Fatalf("after release the budget counts %d, want b's %d", got, want)
	}
	a.Encrypt("after-release")
	if a.enc.Size() != 0 {
		t.Fatal("a released memo remembered a new entry")
	}
}
