package storage

import "slices"

// smallestN keeps the n smallest distinct values offered to it in about
// 2n memory: the windows of a list over encrypted names, which the store
// cannot order, read every row and keep only the next window's entries.
type smallestN[T any] struct {
	keep []T
	n    int
	more bool // values beyond the n smallest were offered
	cmp  func(a, b T) int
	same func(a, b T) bool // entries one of which is dropped
}

func newSmallestN[T any](n int, cmp func(a, b T) int, same func(a, b T) bool) *smallestN[T] {
	return &smallestN[T]{keep: make([]T, 0, 2*n), n: n, cmp: cmp, same: same}
}

// offer considers v; values the caller's cursor excludes are its to skip.
func (k *smallestN[T]) offer(v T) {
	// Past a trim, keep[n-1] is the largest value that can still be kept.
	if k.more && len(k.keep) >= k.n && k.cmp(v, k.keep[k.n-1]) >= 0 {
		return
	}
	k.keep = append(k.keep, v)
	if len(k.keep) == cap(k.keep) {
		k.trim()
	}
}

func (k *smallestN[T]) trim() {
	slices.SortFunc(k.keep, k.cmp)
	k.keep = slices.CompactFunc(k.keep, k.same)
	if len(k.keep) > k.n {
		k.more = true
		clear(k.keep[k.n:])
		k.keep = k.keep[:k.n]
	}
}

// result is the n smallest values, sorted, and whether there were more.
func (k *smallestN[T]) result() ([]T, bool) {
	k.trim()
	return k.keep, k.more
}
