package main

import (
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestAtLeastAcrossReplicas: a write on one replica, then a check on
// another with --at-least the first's revision, is never stale, revoke or
// grant; a token the store has not reached is refused (exit 2).
func TestAtLeastAcrossReplicas(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		a, b := startServer(t, target), startServer(t, target)
		k := newKey()
		must(t, 0, a.url, k, "role", "add", "editor")
		must(t, 0, a.url, k, "grant", "add", "editor", "edit")
		revision := func() string {
			t.Helper()
			rev := strings.TrimSpace(must(t, 0, a.url, k, "revision").stdout)
			if !strings.HasPrefix(rev, "r") {
				t.Fatalf("revision printed %q", rev)
			}
			return rev
		}
		for range 5 {
			must(t, 0, a.url, k, "member", "add", "alice", "editor")
			must(t, 0, b.url, k, "--at-least", revision(), "check", "alice", "edit")
			must(t, 0, a.url, k, "member", "delete", "alice", "editor")
			must(t, 1, b.url, k, "--at-least", revision(), "check", "alice", "edit")
		}
		must(t, 1, b.url, k, "check", "bob", "edit", "--at-least", revision()) // the flag after the command too
		must(t, 2, b.url, k, "--at-least", "r99999999", "check", "alice", "edit")
	})
}
