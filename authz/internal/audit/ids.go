package audit

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
)

// The audit table's ids come from one sequence shared by every client, so
// the ids a client sees of its own records would show, in their gaps, how
// many records every other client wrote meanwhile. A client is shown its
// records' ids through IDs instead: a keyed permutation of the row id,
// which gives nothing of the sequence away, while a cursor (?before=)
// still decodes to the row id it came from. Nothing is stored, so records
// written before need no conversion, and every replica of one store (one
// audit key) agrees.

// IDBits bounds the ids: row ids and their opaque forms are below
// 2^IDBits, so that both are exact in a JSON number read as a double (a
// browser's).
const IDBits = 52

const (
	half     = IDBits / 2
	halfMask = 1<<half - 1
	rounds   = 8
	maxID    = 1<<IDBits - 1
)

// ErrBadID is a cursor that no record's id can be: zero, negative, or
// not below 2^IDBits.
var ErrBadID = errors.New("not a record id")

// IDs encodes row ids as the ids clients see, and back.
type IDs struct{ block cipher.Block }

// NewIDs returns the ids keyed by secret (the store's audit key).
func NewIDs(secret []byte) *IDs {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("rolegate audit record ids"))
	b, err := aes.NewCipher(m.Sum(nil)[:16])
	if err != nil {
		panic(err) // a 16-byte key is always valid
	}
	return &IDs{block: b}
}

// Encode is the id a client sees of row id, from 1 to 2^IDBits-1.
func (x *IDs) Encode(row int64) int64 {
	v := uint64(row) & maxID
	// Cycle-walking: the permutation is of 0..2^IDBits-1, and 0 is never
	// shown (clients take 0 for "no cursor"): step on past it.
	for {
		v = x.permute(v, false)
		if v != 0 {
			return int64(v)
		}
	}
}

// Decode is the row id of an id Encode returned; ErrBadID when id is out
// of range. Any id in range decodes to some row id: an id never shown
// only pages from an arbitrary point of the caller's own records.
func (x *IDs) Decode(id int64) (int64, error) {
	if id < 1 || id > maxID {
		return 0, ErrBadID
	}
	v := uint64(id)
	for {
		v = x.permute(v, true)
		if v != 0 {
			return int64(v), nil
		}
	}
}

// permute is a balanced Feistel network over two halves of IDBits/2
// bits, with AES as its round function: a permutation of 0..2^IDBits-1
// for every key (inverse reverses it).
func (x *IDs) permute(v uint64, inverse bool) uint64 {
	l, r := v>>half, v&halfMask
	var in, out [16]byte
	f := func(i int, r uint64) uint64 {
		in[0] = byte(i)
		binary.BigEndian.PutUint64(in[8:], r)
		x.block.Encrypt(out[:], in[:])
		return binary.BigEndian.Uint64(out[:8]) & halfMask
	}
	if !inverse {
		for i := 0; i < rounds; i++ {
			l, r = r, l^f(i, r)
		}
	} else {
		for i := rounds - 1; i >= 0; i-- {
			l, r = r^f(i, l), l
		}
	}
	return l<<half | r
}
