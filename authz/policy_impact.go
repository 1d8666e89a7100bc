package authz

import "github.com/rolegate/rolegate/authz/internal/impact"

type (
	// Access is one answer of the effective model: User holds Permission in
	// Scope, or globally when Scope is empty (an entry of PolicyImpact).
	Access = impact.Access
	// Impact is who gains and who loses access: the accesses gained and
	// lost, each sorted by user, permission, then scope (global first).
	// A global entry is a change of the check without a scope, and of the
	// check in every scope where no scoped membership of the user decides
	// it; a scoped entry is a change in that scope while the global answer
	// stays as it was.
	Impact = impact.Change
)

// PolicyImpact returns who would gain and who would lose access if
// desired were applied to a namespace holding current, as ApplyPolicy
// applies it: desired's memberships when it manages them, else current's
// (less those of the roles desired deletes). It works on the effective
// model: inheritance, global and scoped memberships. current must hold
// the namespace's memberships (ExportPolicy gives them); both policies
// normalized, as PlanPolicy wants them.
func PolicyImpact(current, desired Policy) Impact {
	after := desired
	if !desired.ManageMemberships {
		after.Memberships = current.Memberships
	}
	return impact.Diff(impactState(current), impactState(after))
}

// impactState is the part of a policy that decides access.
func impactState(p Policy) impact.State {
	st := impact.State{Roles: make(map[string]impact.Role, len(p.Roles)), Memberships: make([]impact.Membership, len(p.Memberships))}
	for _, r := range p.Roles {
		st.Roles[r.Name] = impact.Role{Permissions: r.Permissions, Inherits: r.Inherits}
	}
	for i, m := range p.Memberships {
		st.Memberships[i] = impact.Membership{User: m.User, Role: m.Role, Scope: m.Scope}
	}
	return st
}
