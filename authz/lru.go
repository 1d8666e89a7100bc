package authz

import (
	"cmp"
	"slices"

	"github.com/puzpuzpuz/xsync/v3"
)

// sweepOldest removes from m the least recently used values (by age, older
// first) until at most keep remain, calling drop on each removed one.
// Values for which pinned is true are never removed. Both the user cache
// and the client table bound themselves with it.
func sweepOldest[V any](m *xsync.MapOf[string, V], keep int, age func(V) int64, pinned func(V) bool, drop func(V)) {
	type aged struct {
		key string
		v   V
		age int64
	}
	all := make([]aged, 0, m.Size())
	m.Range(func(k string, v V) bool {
		if pinned == nil || !pinned(v) {
			all = append(all, aged{k, v, age(v)})
		}
		return true
	})
	if len(all) <= keep {
		return
	}
	slices.SortFunc(all, func(a, b aged) int { return cmp.Compare(a.age, b.age) })
	for _, a := range all[:len(all)-keep] {
		m.Delete(a.key)
		if drop != nil {
			drop(a.v)
		}
	}
}
