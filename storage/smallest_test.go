package storage

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// smallestN against a model: sort, deduplicate, take n.
func TestSmallestN(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		n := 1 + rng.IntN(5)
		var all []string
		k := newSmallestN(n, strings.Compare, func(a, b string) bool { return a == b })
		for range rng.IntN(40) {
			v := string(rune('a' + rng.IntN(20)))
			all = append(all, v)
			k.offer(v)
		}
		slices.Sort(all)
		all = slices.Compact(all)
		want, wantMore := all, false
		if len(all) > n {
			want, wantMore = all[:n], true
		}
		got, more := k.result()
		if !slices.Equal(got, want) || more != wantMore {
			t.Fatalf("round %d, n %d: %v %v, want %v %v", round, n, got, more, want, wantMore)
		}
	}
}
