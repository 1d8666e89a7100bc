package main

import (
	"fmt"
	"math/rand/v2"
)

// size is one workload of issue 4: users user-N, roles role-N, as many
// permissions perm-N as roles; each role holds 10 distinct permissions and
// each user is a member of 2 distinct roles, drawn from a fixed-seed
// generator (math/rand/v2 PCG seeded 1, 2).
type size struct {
	name         string
	users, roles int
}

var sizes = []size{
	{"small", 1_000, 100},
	{"medium", 10_000, 1_000},
	{"large", 100_000, 10_000},
}

func sizeByName(name string) (size, bool) {
	for _, s := range sizes {
		if s.name == name {
			return s, true
		}
	}
	return size{}, false
}

// workload is the grants of one size and its 512 fixed checks, alternating
// allowed and denied. It is generated exactly as authz/bench_test.go's
// makeBenchData, so the checks are the same ones rolegate's own benchmark
// uses.
type workload struct {
	size      size
	rolePerms [][]int // role -> permissions
	userRoles [][]int // user -> roles
	checks    []check
}

type check struct {
	user, perm string
	want       bool
}

func makeWorkload(s size) *workload {
	rng := rand.New(rand.NewPCG(1, 2))
	w := &workload{size: s, rolePerms: make([][]int, s.roles), userRoles: make([][]int, s.users)}
	for r := range w.rolePerms {
		w.rolePerms[r] = distinct(rng, 10, s.roles)
	}
	for u := range w.userRoles {
		w.userRoles[u] = distinct(rng, 2, s.roles)
	}
	// The expected answers come from a plain map, used only here.
	floor := make(map[string]map[string]struct{}, s.users)
	for u, roles := range w.userRoles {
		set := map[string]struct{}{}
		for _, r := range roles {
			for _, p := range w.rolePerms[r] {
				set[permName(p)] = struct{}{}
			}
		}
		floor[userName(u)] = set
	}
	for len(w.checks) < 512 {
		u := userName(rng.IntN(s.users))
		p := permName(rng.IntN(s.roles))
		_, has := floor[u][p]
		if has == (len(w.checks)%2 == 0) {
			w.checks = append(w.checks, check{u, p, has})
		}
	}
	return w
}

func distinct(rng *rand.Rand, n, max int) []int {
	seen := map[int]bool{}
	out := make([]int, 0, n)
	for len(out) < n {
		if v := rng.IntN(max); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func userName(i int) string { return fmt.Sprintf("user-%d", i) }
func roleName(i int) string { return fmt.Sprintf("role-%d", i) }
func permName(i int) string { return fmt.Sprintf("perm-%d", i) }
