package authztest_test

import (
	"context"
	"fmt"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/authz/authztest"
)

// Open and Check, as rolegatectl policy test runs them: a wrong case comes
// back with the answer given and why. In a test, New, Allow, Deny and
// Cases do the same and report on t.
func ExampleStore_Check() {
	ctx := context.Background()
	p, err := authz.ParsePolicy([]byte(`version: 1
roles:
  - {name: viewer, permissions: [read]}
  - {name: editor, permissions: [edit], inherits: [viewer]}
memberships:
  - {user: alice, role: editor, scope: org-1}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := authztest.Open(ctx, p, authztest.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	results, err := s.Check(ctx, []authz.PolicyCase{
		{User: "alice", Permission: "read", Scope: "org-1", Allow: true},
		{User: "alice", Permission: "read", Allow: true, Name: "alice reads everywhere"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range results {
		fmt.Print(r)
	}
	// Output:
	// ok: alice may read in org-1
	//   user: alice  permission: read  scope: org-1
	//   expected: allow  got: allow
	// FAIL: alice reads everywhere
	//   user: alice  permission: read  scope: (global)
	//   expected: allow  got: deny
	//   why: alice holds no global membership; roles holding read: editor, viewer; alice holds it in org-1 (through editor)
}
