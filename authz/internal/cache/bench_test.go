package cache

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchWorld is the check benchmark's workload of authz (users each in 2
// of the roles, each role holding 10 of as many permissions as roles),
// warm in a cache, with 512 checks alternating allowed and denied.
type benchWorld struct {
	c      *Cache
	checks []struct {
		user, perm string
		want       bool
	}
	floor map[string]map[string]struct{}
}

func newBenchWorld(b *testing.B, users, roles int) *benchWorld {
	rng := rand.New(rand.NewPCG(1, 2))
	s := newFakeStore()
	w := &benchWorld{floor: map[string]map[string]struct{}{}}
	for r := range roles {
		for range 10 {
			s.grant(fmt.Sprintf("role-%d", r), fmt.Sprintf("perm-%d", rng.IntN(roles)), true)
		}
	}
	for u := range users {
		name := fmt.Sprintf("user-%d", u)
		w.floor[name] = map[string]struct{}{}
		for range 2 {
			r := rng.IntN(roles)
			s.member(name, fmt.Sprintf("role-%d", r), true)
			for p, ok := range s.grants[fmt.Sprintf("role-%d", r)] {
				if ok {
					w.floor[name][p] = struct{}{}
				}
			}
		}
	}
	w.c = New(s, NewBudget(10*users, 1<<40), nil)
	for len(w.checks) < 512 {
		u, p := fmt.Sprintf("user-%d", rng.IntN(users)), fmt.Sprintf("perm-%d", rng.IntN(roles))
		_, has := w.floor[u][p]
		if has == (len(w.checks)%2 == 0) {
			w.checks = append(w.checks, struct {
				user, perm string
				want       bool
			}{u, p, has})
			if got, err := w.c.Allowed(bg, u, "", p); err != nil || got != has {
				b.Fatalf("Allowed(%s, %s) = %v, %v", u, p, got, err)
			}
		}
	}
	return w
}

// BenchmarkAllowed is the warm check against BenchmarkMapFloor, a plain
// precomputed map of each user's permissions.
func BenchmarkAllowed(b *testing.B) {
	w := newBenchWorld(b, 10_000, 1_000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ck := &w.checks[i&511]
		if ok, _ := w.c.Allowed(bg, ck.user, "", ck.perm); ok != ck.want {
			b.Fatal("wrong answer")
		}
	}
}

func BenchmarkMapFloor(b *testing.B) {
	w := newBenchWorld(b, 10_000, 1_000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ck := &w.checks[i&511]
		if _, ok := w.floor[ck.user][ck.perm]; ok != ck.want {
			b.Fatal("wrong answer")
		}
	}
}
