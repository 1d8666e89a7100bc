package audit

import "testing"

func TestIDsRoundTripInRange(t *testing.T) {
	x := NewIDs([]byte("a store's audit key"))
	seen := map[int64]bool{}
	for _, row := range []int64{1, 2, 3, 4, 1000, 1 << 31, maxID - 1, maxID} {
		id := x.Encode(row)
		if id < 1 || id > maxID {
			t.Fatalf("Encode(%d) = %d, out of 1..2^%d-1", row, id, IDBits)
		}
		if seen[id] {
			t.Fatalf("Encode(%d) = %d twice", row, id)
		}
		seen[id] = true
		back, err := x.Decode(id)
		if err != nil || back != row {
			t.Fatalf("Decode(Encode(%d)) = %d, %v", row, back, err)
		}
	}
	for _, bad := range []int64{0, -1, maxID + 1} {
		if _, err := x.Decode(bad); err == nil {
			t.Fatalf("Decode(%d) accepted", bad)
		}
	}
}

// Consecutive rows get ids with no visible order or spacing: the
// difference of neighbours says nothing of how many rows lie between.
func TestIDsHideTheSequence(t *testing.T) {
	x := NewIDs([]byte("k"))
	prev := x.Encode(100)
	ups := 0
	for row := int64(101); row < 1100; row++ {
		id := x.Encode(row)
		if d := id - prev; d > 0 && d < 1000 {
			t.Fatalf("rows %d and %d got ids %d apart", row-1, row, d)
		}
		if id > prev {
			ups++
		}
		prev = id
	}
	if ups < 400 || ups > 600 {
		t.Fatalf("ids rose %d times of 999: ordered, not opaque", ups)
	}
	if NewIDs([]byte("other")).Encode(100) == x.Encode(100) {
		t.Fatal("two keys gave one id")
	}
}
