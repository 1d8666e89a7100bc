package feed

import (
	"errors"
	"math"
	"testing"
)

func TestFormatParse(t *testing.T) {
	for _, rev := range []int64{0, 1, 42, math.MaxInt64} {
		got, err := Parse(Format(rev))
		if err != nil || got != rev {
			t.Fatalf("Parse(Format(%d)) = %d, %v", rev, got, err)
		}
	}
	for _, bad := range []string{"", "r", "1", "R1", "r-1", "r+1", "r01", "r 1", "r1 ", "r1x", "rr1", "r9223372036854775808", "r99999999999999999999", "x12"} {
		if _, err := Parse(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("Parse(%q) = %v; want ErrInvalid", bad, err)
		}
	}
}
