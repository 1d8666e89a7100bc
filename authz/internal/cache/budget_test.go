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
	keeper := New(s, b)
	var caches []*Cache
	for i := range 200 {
		c := New(s, b)
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
	c := New(s, NewBudget(10, 1<<40))
	for i := range 100 {
		s.member(fmt.Sprintf("u%d", i), "editor", true)
		allowedIs(t, c, fmt.Sprintf("u%d", i), "", "edit", true)
	}
	for i := range 100 {
		allowedIs(t, c, fmt.Sprintf("u%d", i), "", "edit", true)
		allowedIs(t, c, fmt.Sprintf("u%d", i), "", "other", false)
	}
}
