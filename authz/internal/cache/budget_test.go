package cache

import (
	"fmt"
	"testing"
)

// A flood of new user names over many caches (as from random client keys)
// cannot grow the entries past one budget shared by all of them; the count
// the budget keeps matches what the caches hold; the most recently used
// user stays.
func TestBudgetBoundsEveryCacheTogether(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.member("keep", "editor", true)
	const max = 500
	b := NewBudget(max, 1<<40)
	keeper := New(s, b, nil)
	var caches []*Cache
	for i := range 200 {
		c := New(s, b, nil)
		caches = append(caches, c)
		for j := range 50 {
			s.member(fmt.Sprintf("u%d-%d", i, j), "editor", j%2 == 0)
			allowedIs(t, c, fmt.Sprintf("u%d-%d", i, j), "", "edit", j%2 == 0)
			allowedIs(t, keeper, "keep", "", "edit", true)
			if b.Used() > max+1 {
				t.Fatalf("budget of %d holds %d entries", max, b.Used())
			}
		}
	}
	total := keeper.Len() + keeper.Roles()
	for _, c := range caches {
		total += c.Len() + c.Roles()
	}
	if total != b.Used() || total > max {
		t.Fatalf("caches hold %d entries, the budget counts %d (max %d)", total, b.Used(), max)
	}
	if keeper.InternUser("keep") == nil {
		t.Fatal("the most recently used user was evicted")
	}
	for _, c := range caches {
		c.Close()
	}
	keeper.Close()
	if b.Used() != 0 {
		t.Fatalf("closed caches leave %d entries counted", b.Used())
	}
}

// Evicted users and role sets are rebuilt on their next check, correctly.
func TestEvictedEntriesAreRebuilt(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	c := New(s, NewBudget(10, 1<<40), nil)
	for i := range 100 {
		s.member(fmt.Sprintf("u%d", i), "editor", true)
		allowedIs(t, c, fmt.Sprintf("u%d", i), "", "edit", true)
	}
	for i := range 100 {
		allowedIs(t, c, fmt.Sprintf("u%d", i), "", "edit", true)
		allowedIs(t, c, fmt.Sprintf("u%d", i), "", "other", false)
	}
}

// Roles with the same effective set share one set: 600 roles inheriting
// one role of 3,000 long names hold those names once, and the budget
// counts them once.
func TestIdenticalSetsAreHeldOnce(t *testing.T) {
	s := newFakeStore()
	for i := range 3000 {
		s.grant("big", fmt.Sprintf("p%04d-%0120d", i, 0), true)
	}
	for i := range 600 {
		f := fmt.Sprintf("f%d", i)
		s.parents[f] = []string{"big"}
		s.member("fan", f, true)
	}
	b := NewBudget(1_000_000, 1<<40)
	c := New(s, b, nil)
	allowedIs(t, c, "fan", "", "nope", false)
	allowedIs(t, c, "fan", "", fmt.Sprintf("p%04d-%0120d", 7, 0), true)
	if n := len(c.sets); n != 1 {
		t.Fatalf("600 roles of one effective set hold %d sets", n)
	}
	if got := b.UsedBytes(); got > 1<<20 {
		t.Fatalf("the budget counts %d bytes for one set of 3,000 names", got)
	}
	// A grant to one of them gives it a set of its own; the others keep
	// sharing.
	s.grant("f7", "extra", true)
	c.InvalidateRole("f7")
	allowedIs(t, c, "fan", "", "extra", true)
	if n := len(c.sets); n != 2 {
		t.Fatalf("after a grant to one role: %d sets, want 2", n)
	}
	c.Close()
	if b.UsedBytes() != 0 || b.Used() != 0 {
		t.Fatalf("a closed cache leaves %d entries, %d bytes counted", b.Used(), b.UsedBytes())
	}
}

// The budget in bytes holds across caches, and a client that fills it
// with large sets loses its own entries, not another client's hot user.
func TestByteBudgetTakesFromTheLargest(t *testing.T) {
	s := newFakeStore()
	s.grant("editor", "edit", true)
	s.member("keep", "editor", true)
	const max = 2 << 20
	b := NewBudget(1_000_000, max)
	keeper := New(s, b, nil)
	hog := New(s, b, nil)
	allowedIs(t, keeper, "keep", "", "edit", true)
	for i := range 200 {
		role := fmt.Sprintf("r%d", i)
		for j := range 100 {
			s.grant(role, fmt.Sprintf("%s-%0120d", role, j), true)
		}
		s.member(fmt.Sprintf("u%d", i), role, true)
		allowedIs(t, hog, fmt.Sprintf("u%d", i), "", fmt.Sprintf("%s-%0120d", role, 3), true)
		if b.UsedBytes() > max+64<<10 {
			t.Fatalf("budget of %d bytes counts %d", max, b.UsedBytes())
		}
	}
	if keeper.InternUser("keep") == nil {
		t.Fatal("a client holding a few bytes lost its user to one holding the most")
	}
	if got := keeper.Bytes() + hog.Bytes(); got != b.UsedBytes() {
		t.Fatalf("caches count %d bytes, the budget %d", got, b.UsedBytes())
	}
	allowedIs(t, hog, "u0", "", fmt.Sprintf("r0-%0120d", 3), true) // rebuilt after eviction
}
