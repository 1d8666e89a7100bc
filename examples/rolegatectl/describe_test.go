package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestRoleDescribe changes a role's description through PUT
// /api/role/{role}: the new text is what the list shows, "" clears it,
// and a missing role is "not found" (exit 1) with nothing created.
func TestRoleDescribe(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := startServer(t, target)
		k := newKey()
		must(t, 0, s.url, k, "role", "add", "editor", "-d", "Edits notes")
		r := must(t, 0, s.url, k, "role", "describe", "editor", "Edits and publishes notes")
		if !strings.Contains(r.stdout, "role editor: description set") {
			t.Errorf("role describe: %q", r.stdout)
		}
		var roles []map[string]string
		jsonOut(t, s.url, k, &roles, "role", "list")
		if want := []map[string]string{{"role": "editor", "description": "Edits and publishes notes"}}; !reflect.DeepEqual(roles, want) {
			t.Errorf("role list: %v, want %v", roles, want)
		}
		var out map[string]string
		jsonOut(t, s.url, k, &out, "role", "describe", "editor", "")
		if want := map[string]string{"role": "editor", "description": ""}; !reflect.DeepEqual(out, want) {
			t.Errorf("role describe -o json: %v, want %v", out, want)
		}
		r = must(t, 1, s.url, k, "role", "describe", "ghost", "x")
		if !strings.Contains(r.stderr, "not found") {
			t.Errorf("describe a missing role: stderr %q", r.stderr)
		}
		roles = nil
		jsonOut(t, s.url, k, &roles, "role", "list")
		if len(roles) != 1 {
			t.Errorf("describing a missing role created one: %v", roles)
		}
		must(t, 2, s.url, k, "role", "describe", "editor")
	})
}
