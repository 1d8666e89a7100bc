package cache

import (
	"encoding/binary"
	"slices"
	"strings"
)

// ScopedRole is a role a user holds in one scope only (see
// Loader.UserRoles).
type ScopedRole struct {
	Scope, Role string
}

// A user may hold memberships in thousands of scopes (as many as the rows
// a client may store), most often the same role or two in each. The entry
// keeps them in a form built in one pass over the store's rows, with no
// map of scopes and no sort when the store answers in order: the scopes
// sorted (a check finds its scope by binary search), each with the set of
// roles held there, every distinct set kept once. The form names roles by
// number, not by entry, so an entry refreshed after a grant (the same
// memberships, some role entries replaced) shares it whole and replaces
// only its list of role entries: a user in 9,000 scopes of one role costs
// a refresh one pointer.

// scopeIndex is a user's scoped memberships (see above). Immutable once
// built; shared by the entries of the same memberships.
type scopeIndex struct {
	scopes []string   // sorted, distinct
	in     []uint32   // in[i]: the roles held in scopes[i], an index into sets
	sets   [][]uint32 // distinct sets of roles, each ascending indices into names
	names  []string   // the roles held in some scope, sorted, distinct
	// where[r]: the scopes where names[r] is held, sorted (see where.go);
	// scopes itself for a role held in every scope.
	where [][]string
	bytes int64 // what the index is counted as in the budget
}

// Budget sizes of a scope index's parts, beside the names' bytes.
const (
	indexBytes      = 160 // the index: struct and slice headers
	indexScopeBytes = 20  // one scope: string header and its set's number
	indexSetBytes   = 24  // one set's slice header (4 bytes a role beside it)
	indexRoleBytes  = 40  // one role: name header and its where list's header
	groupScopeBytes = 16  // one scope's string header in a where list
)

// compareScoped orders scoped roles by scope, then role (byte order).
func compareScoped(a, b ScopedRole) int {
	if c := strings.Compare(a.Scope, b.Scope); c != 0 {
		return c
	}
	return strings.Compare(a.Role, b.Role)
}

// newScopeIndex builds the index of scoped (nil for none). scoped is
// normally sorted by scope then role with each pair once, as the store
// reads it; otherwise a sorted copy is made first.
func newScopeIndex(scoped []ScopedRole) *scopeIndex {
	if len(scoped) == 0 {
		return nil
	}
	if !slices.IsSortedFunc(scoped, compareScoped) {
		scoped = slices.SortedFunc(slices.Values(scoped), compareScoped)
	}
	x := &scopeIndex{bytes: indexBytes}
	// The roles, numbered in name order: few, however many scopes.
	number := map[string]uint32{}
	for _, m := range scoped {
		if _, ok := number[m.Role]; !ok {
			number[m.Role] = 0
			x.names = append(x.names, m.Role)
		}
	}
	slices.Sort(x.names)
	for i, n := range x.names {
		number[n] = uint32(i)
		x.bytes += indexRoleBytes + int64(len(n))
	}
	// The scopes, each with its set of roles: one set for the run of
	// scopes holding the same roles, a map lookup when the set changes.
	setAt := map[string]uint32{}
	var cur []uint32
	var key []byte
	held := make([]int, len(x.names)) // per role, the scopes it is held in
	for i := 0; i < len(scoped); {
		scope := scoped[i].Scope
		cur = cur[:0]
		for ; i < len(scoped) && scoped[i].Scope == scope; i++ {
			r := number[scoped[i].Role]
			if len(cur) == 0 || cur[len(cur)-1] != r { // a pair given twice
				cur = append(cur, r)
				held[r]++
			}
		}
		set := uint32(0)
		if n := len(x.in); n > 0 && slices.Equal(x.sets[x.in[n-1]], cur) {
			set = x.in[n-1]
		} else {
			key = key[:0]
			for _, r := range cur {
				key = binary.LittleEndian.AppendUint32(key, r)
			}
			var ok bool
			if set, ok = setAt[string(key)]; !ok {
				set = uint32(len(x.sets))
				setAt[string(key)] = set
				x.sets = append(x.sets, slices.Clone(cur))
				x.bytes += indexSetBytes + 4*int64(len(cur))
			}
		}
		x.scopes = append(x.scopes, scope)
		x.in = append(x.in, set)
		x.bytes += indexScopeBytes + int64(len(scope))
	}
	x.scopes, x.in = slices.Clip(x.scopes), slices.Clip(x.in)
	// Where each role is held: the scopes themselves for a role held in
	// all of them, else a list made in one more pass.
	x.where = make([][]string, len(x.names))
	partial := false
	for r, n := range held {
		if n == len(x.scopes) {
			x.where[r] = x.scopes
			continue
		}
		x.where[r] = make([]string, 0, n)
		x.bytes += groupScopeBytes * int64(n)
		partial = true
	}
	if partial {
		for i, s := range x.scopes {
			for _, r := range x.sets[x.in[i]] {
				if held[r] != len(x.scopes) {
					x.where[r] = append(x.where[r], s)
				}
			}
		}
	}
	return x
}

// rolesIn returns the roles held in scope, as indices into names (nil for
// none). It allocates nothing.
func (x *scopeIndex) rolesIn(scope string) []uint32 {
	if x == nil {
		return nil
	}
	i, ok := slices.BinarySearch(x.scopes, scope)
	if !ok {
		return nil
	}
	return x.sets[x.in[i]]
}

// holds reports whether role is held in some scope.
func (x *scopeIndex) holds(role string) bool {
	if x == nil {
		return false
	}
	_, ok := slices.BinarySearch(x.names, role)
	return ok
}
