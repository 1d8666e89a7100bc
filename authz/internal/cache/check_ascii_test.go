package cache

import (
	"strings"
	"testing"
)

// ascii finds a non-ASCII byte wherever it sits: in any of the names, in
// the eight-byte words or in the tail.
func TestASCIIFindsEveryNonASCIIByte(t *testing.T) {
	if !ascii("", "sara", "edit-notes-and-more") {
		t.Fatal("ASCII names reported as not ASCII")
	}
	for n := range 20 {
		for at := range n {
			s := []byte(strings.Repeat("a", n))
			s[at] = 0xC3
			for i, names := range [][3]string{{string(s), "u", "p"}, {"", string(s), "p"}, {"", "u", string(s)}} {
				if ascii(names[0], names[1], names[2]) {
					t.Fatalf("length %d, byte %d, name %d: not found", n, at, i)
				}
			}
		}
	}
}
