package impact

import (
	"cmp"
	"slices"
)

// Membership is a user's membership of a role; Scope "" is global.
type Membership struct {
	User, Role, Scope string
}

// State is what decides access in a namespace: each role's direct grants
// and direct parents, and the memberships. A role absent from Grants holds
// nothing of its own; a membership of a role that is not in Roles counts
// for nothing (a deleted role takes its memberships along).
type State struct {
	// Roles are the roles that exist.
	Roles map[string]Role
	// Memberships, in any order; duplicates are harmless.
	Memberships []Membership
}

// Role is one role's direct grants and parents.
type Role struct {
	Permissions []string
	Inherits    []string
}

// Access is one answer: User holds Permission in Scope ("" global).
type Access struct {
	User       string `json:"user"`
	Permission string `json:"permission"`
	Scope      string `json:"scope,omitempty"`
}

// Change is the impact of going from one state to another: the accesses
// gained and lost, each sorted by user, permission, then scope (global
// first).
type Change struct {
	Gained []Access `json:"gained"`
	Lost   []Access `json:"lost"`
}

// Empty reports whether nobody gains or loses anything.
func (c Change) Empty() bool { return len(c.Gained) == 0 && len(c.Lost) == 0 }

// Diff returns who gains and who loses access from before to after.
func Diff(before, after State) Change {
	eb, ea := effective(before.Roles), effective(after.Roles)
	ub, ua := byUser(before), byUser(after)
	users := make([]string, 0, len(ub)+len(ua))
	for u := range ub {
		users = append(users, u)
	}
	for u := range ua {
		if _, ok := ub[u]; !ok {
			users = append(users, u)
		}
	}
	out := Change{Gained: []Access{}, Lost: []Access{}}
	for _, u := range users {
		mb, ma := ub[u], ua[u]
		if mb.same(ma) && !anyChanged(mb, eb, ea) {
			continue // same roles, each holding what it held
		}
		gb, ga := union(eb, mb.global), union(ea, ma.global)
		add := func(to *[]Access, from, minus map[string]struct{}, scope string, also map[string]struct{}) {
			for p := range from {
				if _, ok := minus[p]; ok {
					continue
				}
				if _, ok := also[p]; ok {
					continue
				}
				*to = append(*to, Access{User: u, Permission: p, Scope: scope})
			}
		}
		add(&out.Gained, ga, gb, "", nil)
		add(&out.Lost, gb, ga, "", nil)
		// In a scope, a change counts when the global answer did not
		// change: then the permission is in neither global set, and only
		// the scoped memberships decide.
		global := make(map[string]struct{}, len(ga)+len(gb))
		for p := range ga {
			global[p] = struct{}{}
		}
		for p := range gb {
			global[p] = struct{}{}
		}
		for _, s := range scopesOf(mb, ma) {
			sb, sa := union(eb, mb.scoped[s]), union(ea, ma.scoped[s])
			add(&out.Gained, sa, sb, s, global)
			add(&out.Lost, sb, sa, s, global)
		}
	}
	sortAccess(out.Gained)
	sortAccess(out.Lost)
	return out
}

func sortAccess(v []Access) {
	slices.SortFunc(v, func(a, b Access) int {
		return cmp.Or(cmp.Compare(a.User, b.User), cmp.Compare(a.Permission, b.Permission), cmp.Compare(a.Scope, b.Scope))
	})
}

// held is one user's roles: global ones, and per scope the scoped ones,
// each a sorted set of the roles that exist.
type held struct {
	global []string
	scoped map[string][]string
}

func (h held) same(o held) bool {
	if !slices.Equal(h.global, o.global) || len(h.scoped) != len(o.scoped) {
		return false
	}
	for s, r := range h.scoped {
		if q, ok := o.scoped[s]; !ok || !slices.Equal(r, q) {
			return false
		}
	}
	return true
}

// anyChanged reports whether one of the user's roles holds another set of
// permissions after than before.
func anyChanged(h held, eb, ea map[string]map[string]struct{}) bool {
	changed := func(roles []string) bool {
		for _, r := range roles {
			if !sameSet(eb[r], ea[r]) {
				return true
			}
		}
		return false
	}
	if changed(h.global) {
		return true
	}
	for _, roles := range h.scoped {
		if changed(roles) {
			return true
		}
	}
	return false
}

func sameSet(a, b map[string]struct{}) bool {
	if len(a) != len(b) {
		return false
	}
	for p := range a {
		if _, ok := b[p]; !ok {
			return false
		}
	}
	return true
}

func scopesOf(a, b held) []string {
	out := make([]string, 0, len(a.scoped)+len(b.scoped))
	for s := range a.scoped {
		out = append(out, s)
	}
	for s := range b.scoped {
		if _, ok := a.scoped[s]; !ok {
			out = append(out, s)
		}
	}
	return out
}

// byUser groups the memberships of roles that exist by user.
func byUser(st State) map[string]held {
	out := map[string]held{}
	for _, m := range st.Memberships {
		if _, ok := st.Roles[m.Role]; !ok {
			continue
		}
		h := out[m.User]
		if m.Scope == "" {
			h.global = append(h.global, m.Role)
		} else {
			if h.scoped == nil {
				h.scoped = map[string][]string{}
			}
			h.scoped[m.Scope] = append(h.scoped[m.Scope], m.Role)
		}
		out[m.User] = h
	}
	for u, h := range out {
		h.global = sortedSet(h.global)
		for s, r := range h.scoped {
			h.scoped[s] = sortedSet(r)
		}
		out[u] = h
	}
	return out
}

func sortedSet(v []string) []string {
	slices.Sort(v)
	return slices.Compact(v)
}

// union is the permissions the roles hold together.
func union(eff map[string]map[string]struct{}, roles []string) map[string]struct{} {
	if len(roles) == 1 {
		return eff[roles[0]]
	}
	out := map[string]struct{}{}
	for _, r := range roles {
		for p := range eff[r] {
			out[p] = struct{}{}
		}
	}
	return out
}

// effective is each role's permissions, its own and those of every role
// it inherits, transitively. Parents that do not exist add nothing; a
// cycle (which the store refuses) ends the walk rather than looping.
func effective(roles map[string]Role) map[string]map[string]struct{} {
	out := make(map[string]map[string]struct{}, len(roles))
	onPath := map[string]bool{}
	var visit func(string) map[string]struct{}
	visit = func(r string) map[string]struct{} {
		if set, ok := out[r]; ok {
			return set
		}
		role, ok := roles[r]
		if !ok || onPath[r] {
			return nil
		}
		onPath[r] = true
		set := make(map[string]struct{}, len(role.Permissions))
		for _, p := range role.Permissions {
			set[p] = struct{}{}
		}
		for _, parent := range role.Inherits {
			for p := range visit(parent) {
				set[p] = struct{}{}
			}
		}
		delete(onPath, r)
		out[r] = set
		return set
	}
	for r := range roles {
		visit(r)
	}
	return out
}
