// Package authztest checks a host app's authorization against its real
// policy in its own go test: a *authz.Authz on a temporary SQLite store
// with the policy applied under the host's client key, and assertions
// (Allow, Deny, AllowIn, DenyIn, Cases) that report a wrong answer with
// why it was given.
//
//	func TestPolicy(t *testing.T) {
//		s := authztest.New(t, authztest.ReadPolicy(t, "policy.yaml"), authztest.Options{})
//		s.Allow(t, "alice", "edit")
//		s.DenyIn(t, "org-2", "alice", "edit")
//		s.Cases(t, s.Policy.Tests) // the file's own tests:
//	}
//
// Because s.Authz is a real one, the host can build its router on it and
// send requests through its guards (set Options.Config.Resolver as the app
// does). rolegatectl policy test runs a cases file the same way (Open and
// Check), with no server and no database to set up.
//
// The package links nothing that package authz does not already link; it
// does not import package testing (the assertions take the small T
// interface, which *testing.T and *testing.B satisfy), so that a command
// may use Open and Check too.
package authztest
