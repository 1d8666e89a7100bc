package cache

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// A small set answers as a map of the same names would, for names in it
// and names not, at every size up to mergeMax.
func TestSmallAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= mergeMax; n++ {
		names := map[string]struct{}{}
		for len(names) < n {
			names[fmt.Sprintf("p%d", rng.IntN(1000))] = struct{}{}
		}
		var list []string
		for p := range names {
			list = append(list, p)
		}
		s := newSmall(list)
		for i := range 1000 {
			p := fmt.Sprintf("p%d", i)
			_, want := names[p]
			if got := s.has(fingerprint(p), p); got != want {
				t.Fatalf("a set of %d: has(%q) = %v, want %v", n, p, got, want)
			}
		}
	}
}

// Names under one fingerprint are told apart by the names themselves: a
// collision costs a comparison, never a wrong yes.
func TestSmallCollision(t *testing.T) {
	s := &small{n: 3, names: []string{"a", "b", "c"}}
	s.fps[0], s.fps[1], s.fps[2] = 7, 7, 9
	s.bloom = filterBits(7) | filterBits(9)
	for _, c := range []struct {
		fp   uint32
		name string
		want bool
	}{{7, "a", true}, {7, "b", true}, {7, "c", false}, {9, "c", true}, {9, "a", false}, {8, "a", false}, {10, "z", false}} {
		if got := s.has(c.fp, c.name); got != c.want {
			t.Errorf("has(%d, %q) = %v, want %v", c.fp, c.name, got, c.want)
		}
	}
}
