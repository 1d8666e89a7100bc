package cache

import (
	"hash/maphash"
	"slices"
)

// small is a set of at most mergeMax permissions in the form the warm
// check reads fastest: the names' fingerprints sorted in one block, the
// names beside them. A no reads a line or two of fingerprints; a yes
// compares the name found under its fingerprint too, so a collision is a
// comparison, never a wrong answer. A map of the same names takes the
// check through its header, directory, table and group first: under
// churn, each of those lines is one more that another core's work may
// have pushed out of the cache (docs/performance.md).
type small struct {
	n     int32            // first, so that fps start in the line before
	fps   [mergeMax]uint32 // fps[:n], ascending
	names []string         // names[i] has the fingerprint fps[i]
}

// smallBytes is what a small set of n names holds, their bytes apart.
func smallBytes(n int) int64 { return 8 + 4*mergeMax + 24 + 16*int64(n) }

// fingerprint is a name's fingerprint in a small set.
func fingerprint(name string) uint32 { return uint32(maphash.String(setSeed, name)) }

// newSmall is the small set of names (distinct, at most mergeMax).
func newSmall(names []string) *small {
	s := new(small)
	s.fill(names)
	return s
}

// fill makes s the small set of names (distinct, at most mergeMax).
func (s *small) fill(names []string) {
	type pair struct {
		fp   uint32
		name string
	}
	pairs := make([]pair, len(names))
	for i, n := range names {
		pairs[i] = pair{fingerprint(n), n}
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		switch {
		case a.fp < b.fp:
			return -1
		case a.fp > b.fp:
			return 1
		}
		return 0
	})
	*s = small{n: int32(len(pairs)), names: make([]string, len(pairs))}
	for i, p := range pairs {
		s.fps[i], s.names[i] = p.fp, p.name
	}
}

// has reports whether the set holds name, whose fingerprint is fp.
func (s *small) has(fp uint32, name string) bool {
	fps := s.fps[:s.n]
	// Fewer than a few dozen: a scan up to the first fingerprint not
	// below fp reads the same lines as a binary search, without its
	// mispredicted branches.
	for i, f := range fps {
		if f < fp {
			continue
		}
		for ; i < len(fps) && fps[i] == fp; i++ {
			if s.names[i] == name {
				return true
			}
		}
		return false
	}
	return false
}
