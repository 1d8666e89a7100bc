package cache

import (
	"fmt"
	"slices"
	"testing"
)

// The scope index answers which roles are held in a scope, and where each
// role is held, from pairs given in any order (twice, too); scopes holding
// the same roles share one set, and a role held everywhere shares the
// scopes list itself.
func TestScopeIndex(t *testing.T) {
	pairs := []ScopedRole{
		{"org-9", "viewer"}, {"org-1", "viewer"}, {"org-1", "editor"}, {"org-5", "viewer"},
		{"org-1", "viewer"}, {"org-3", "editor"}, {"org-3", "viewer"},
	}
	x := newScopeIndex(pairs)
	if want := []string{"org-1", "org-3", "org-5", "org-9"}; !slices.Equal(x.scopes, want) {
		t.Fatalf("scopes %q, want %q", x.scopes, want)
	}
	if want := []string{"editor", "viewer"}; !slices.Equal(x.names, want) {
		t.Fatalf("names %q, want %q", x.names, want)
	}
	roles := func(scope string) []string {
		var out []string
		for _, r := range x.rolesIn(scope) {
			out = append(out, x.names[r])
		}
		return out
	}
	for scope, want := range map[string][]string{
		"org-1": {"editor", "viewer"}, "org-3": {"editor", "viewer"}, "org-5": {"viewer"}, "org-9": {"viewer"},
		"org-2": nil, "": nil, "org-10": nil,
	} {
		if got := roles(scope); !slices.Equal(got, want) {
			t.Errorf("roles in %q: %q, want %q", scope, got, want)
		}
	}
	if len(x.sets) != 2 {
		t.Errorf("%d distinct sets, want 2: %v", len(x.sets), x.sets)
	}
	if want := []string{"org-1", "org-3"}; !slices.Equal(x.where[0], want) {
		t.Errorf("editor held in %q, want %q", x.where[0], want)
	}
	if &x.where[1][0] != &x.scopes[0] {
		t.Errorf("viewer, held everywhere, has a list of its own: %q", x.where[1])
	}
	if !x.holds("editor") || x.holds("admin") || newScopeIndex(nil) != nil {
		t.Error("holds, or the index of no pairs, is wrong")
	}
}

// 9,000 scopes of one role: one set, no where list of its own, and a
// lookup in it allocates nothing.
func TestScopeIndexWide(t *testing.T) {
	var pairs []ScopedRole
	for i := range 9000 {
		pairs = append(pairs, ScopedRole{fmt.Sprintf("s%05d", i), "member"})
	}
	x := newScopeIndex(pairs)
	if len(x.scopes) != 9000 || len(x.sets) != 1 || len(x.names) != 1 || &x.where[0][0] != &x.scopes[0] {
		t.Fatalf("%d scopes, %d sets, %d roles", len(x.scopes), len(x.sets), len(x.names))
	}
	if n := testing.AllocsPerRun(100, func() {
		if len(x.rolesIn("s04711")) != 1 || x.rolesIn("s9") != nil {
			t.Fatal("wrong lookup")
		}
	}); n != 0 {
		t.Fatalf("a lookup allocates %v times", n)
	}
}
