package cache

import (
	"hash/maphash"
	"slices"
)

// small is a set of at most mergeMax permissions in the form the warm
// check reads fastest: the names' fingerprints sorted in one block, the
// names beside them. Most noes end on the filter (bloom); the rest read
// a line or two of fingerprints; a yes compares the name found under its
// fingerprint too, so a collision is a comparison, never a wrong answer. A map of the same names takes the
// check through its header, directory, table and group first: under
// churn, each of those lines is one more that another core's work may
// have pushed out of the cache (docs/performance.md).
type small struct {
	// bloom has two bits set for each name's fingerprint (filterBits),
	// so that most noes end on it: in a user's entry it shares the first
	// line with the warm check's other fields, and the fingerprints past
	// the first few need not be read at all.
	bloom uint64
	n     int32            // before fps, so that they start in the same line
	fps   [mergeMax]uint32 // fps[:n], ascending
	names []string         // names[i] has the fingerprint fps[i]
}

// smallBytes is what a small set of n names holds, their bytes apart.
func smallBytes(n int) int64 { return 16 + 4*mergeMax + 24 + 16*int64(n) }

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
		s.bloom |= filterBits(p.fp)
	}
}

// filterBits are the bits of the set's filter for the fingerprint fp.
func filterBits(fp uint32) uint64 { return 1<<(fp&63) | 1<<(fp>>6&63) }

// has reports whether the set holds name, whose fingerprint is fp.
func (s *small) has(fp uint32, name string) bool {
	if m := filterBits(fp); s.bloom&m != m {
		return false
	}
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
