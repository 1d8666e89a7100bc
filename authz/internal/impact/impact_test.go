package impact

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestDiff(t *testing.T) {
	base := State{
		Roles: map[string]Role{
			"viewer": {Permissions: []string{"read"}},
			"editor": {Permissions: []string{"edit"}, Inherits: []string{"viewer"}},
			"mod":    {Permissions: []string{"delete"}},
		},
		Memberships: []Membership{{"alice", "editor", ""}, {"bob", "viewer", ""}, {"bob", "editor", "org-1"}, {"carol", "mod", "org-2"}},
	}
	with := func(f func(*State)) State {
		s := State{Roles: map[string]Role{}, Memberships: append([]Membership(nil), base.Memberships...)}
		for k, v := range base.Roles {
			s.Roles[k] = v
		}
		f(&s)
		return s
	}
	for _, tc := range []struct {
		name         string
		after        State
		gained, lost []Access
	}{
		{"nothing", base, nil, nil},
		{"grant through inheritance", with(func(s *State) { s.Roles["viewer"] = Role{Permissions: []string{"read", "list"}} }),
			[]Access{{"alice", "list", ""}, {"bob", "list", ""}}, nil},
		{"role deleted takes its members", with(func(s *State) { delete(s.Roles, "mod") }),
			nil, []Access{{"carol", "delete", "org-2"}}},
		{"global membership removed, scoped kept", with(func(s *State) { s.Memberships = s.Memberships[1:] }),
			nil, []Access{{"alice", "edit", ""}, {"alice", "read", ""}}},
		{"scoped grant under a global one is no change in the scope", with(func(s *State) {
			s.Memberships = append(s.Memberships, Membership{"alice", "viewer", "org-1"})
		}), nil, nil},
		{"global loss where a scoped membership keeps it", with(func(s *State) { s.Memberships[1].Role = "mod" }),
			[]Access{{"bob", "delete", ""}}, []Access{{"bob", "read", ""}}},
		{"inheritance link removed", with(func(s *State) { s.Roles["editor"] = Role{Permissions: []string{"edit"}} }),
			nil, []Access{{"alice", "read", ""}}}, // bob keeps read globally through viewer
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Diff(base, tc.after)
			if tc.gained == nil {
				tc.gained = []Access{}
			}
			if tc.lost == nil {
				tc.lost = []Access{}
			}
			if !reflect.DeepEqual(got.Gained, tc.gained) || !reflect.DeepEqual(got.Lost, tc.lost) {
				t.Errorf("gained %v lost %v\nwant gained %v lost %v", got.Gained, got.Lost, tc.gained, tc.lost)
			}
		})
	}
}

// TestDiffAgainstAnswers: on random states, Diff equals the definition
// written as answers: for every user, permission and scope, the global
// answer's changes, and a scope's changes where the global answer stays.
func TestDiffAgainstAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	roles := []string{"r0", "r1", "r2", "r3", "r4"}
	perms := []string{"p0", "p1", "p2", "p3"}
	users := []string{"u0", "u1", "u2"}
	scopes := []string{"", "s1", "s2"}
	random := func() State {
		st := State{Roles: map[string]Role{}}
		for i, r := range roles {
			if rng.IntN(5) == 0 {
				continue
			}
			var role Role
			for _, p := range perms {
				if rng.IntN(3) == 0 {
					role.Permissions = append(role.Permissions, p)
				}
			}
			for _, parent := range roles[i+1:] { // acyclic: parents come later
				if rng.IntN(4) == 0 {
					role.Inherits = append(role.Inherits, parent)
				}
			}
			st.Roles[r] = role
		}
		for range rng.IntN(8) {
			st.Memberships = append(st.Memberships, Membership{users[rng.IntN(len(users))], roles[rng.IntN(len(roles))], scopes[rng.IntN(len(scopes))]})
		}
		return st
	}
	answer := func(st State, u, p, s string) bool {
		eff := effective(st.Roles)
		for _, m := range st.Memberships {
			if _, ok := st.Roles[m.Role]; !ok || m.User != u || (m.Scope != "" && m.Scope != s) {
				continue
			}
			if _, ok := eff[m.Role][p]; ok {
				return true
			}
		}
		return false
	}
	for i := range 2000 {
		a, b := random(), random()
		want := Change{Gained: []Access{}, Lost: []Access{}}
		for _, u := range users {
			for _, p := range perms {
				g := cmpBool(answer(b, u, p, ""), answer(a, u, p, ""))
				for _, s := range scopes {
					d := cmpBool(answer(b, u, p, s), answer(a, u, p, s))
					if s != "" && (d == 0 || g != 0) || s == "" && d == 0 {
						continue
					}
					if d > 0 {
						want.Gained = append(want.Gained, Access{u, p, s})
					} else {
						want.Lost = append(want.Lost, Access{u, p, s})
					}
				}
			}
		}
		if got := Diff(a, b); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d:\nbefore %v\nafter  %v\ngot  %v\nwant %v", i, fmt.Sprint(a), fmt.Sprint(b), got, want)
		}
	}
}

func cmpBool(after, before bool) int {
	switch {
	case after && !before:
		return 1
	case before && !after:
		return -1
	}
	return 0
}
