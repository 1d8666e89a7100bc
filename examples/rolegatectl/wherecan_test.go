package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestWhereCan: `where-can USER PERMISSION` prints whether the user holds
// it globally and the scopes where she does, every page of them; exit 0
// somewhere, 1 nowhere.
func TestWhereCan(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := startServer(t, target)
		k := newKey()
		must(t, 0, s.url, k, "role", "add", "viewer")
		must(t, 0, s.url, k, "role", "add", "editor")
		must(t, 0, s.url, k, "grant", "add", "viewer", "read")
		must(t, 0, s.url, k, "grant", "add", "editor", "edit")
		must(t, 0, s.url, k, "inherit", "add", "editor", "viewer")
		must(t, 0, s.url, k, "member", "add", "alice", "editor", "--scope", "org-2")
		must(t, 0, s.url, k, "member", "add", "alice", "viewer", "--scope", "org-1")
		must(t, 0, s.url, k, "member", "add", "bob", "viewer")

		r := must(t, 0, s.url, k, "where-can", "alice", "read")
		if !strings.Contains(r.stdout, "global: no") || !strings.Contains(r.stdout, "SCOPE") ||
			strings.Index(r.stdout, "org-1") > strings.Index(r.stdout, "org-2") {
			t.Errorf("where-can alice read:\n%s", r.stdout)
		}
		var got whereCan
		jsonOut(t, s.url, k, &got, "where-can", "alice", "edit")
		if want := (whereCan{Global: false, Scopes: []string{"org-2"}}); !reflect.DeepEqual(got, want) {
			t.Errorf("where-can alice edit: %+v, want %+v", got, want)
		}
		r = must(t, 0, s.url, k, "where-can", "bob", "read")
		if !strings.Contains(r.stdout, "global: yes") {
			t.Errorf("where-can bob read:\n%s", r.stdout)
		}
		if r := must(t, 1, s.url, k, "where-can", "bob", "edit"); !strings.Contains(r.stdout, "global: no") {
			t.Errorf("where-can bob edit:\n%s", r.stdout)
		}
		must(t, 2, s.url, k, "where-can", "bob")
		must(t, 2, s.url, k, "where-can", " bob", "read")

		// More scopes than a page: every one, in order.
		cl, err := s.az.Client(k)
		if err != nil {
			t.Fatal(err)
		}
		ops := make([]authz.Operation, pageSize+3)
		for i := range ops {
			ops[i] = authz.Operation{Op: "add_membership", User: "carol", Role: "viewer", Scope: fmt.Sprintf("org-%05d", i)}
		}
		if _, err := cl.Batch(t.Context(), ops); err != nil {
			t.Fatal(err)
		}
		got = whereCan{}
		jsonOut(t, s.url, k, &got, "where-can", "carol", "read")
		if len(got.Scopes) != pageSize+3 || got.Scopes[pageSize+2] != fmt.Sprintf("org-%05d", pageSize+2) {
			t.Fatalf("where-can carol read: %d scopes", len(got.Scopes))
		}
	})
}
