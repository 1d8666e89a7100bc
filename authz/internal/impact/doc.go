// Package impact answers "who gains and who loses access" between two
// states of a namespace, on the effective model: inheritance (transitive),
// global memberships (which hold everywhere) and scoped ones (which hold
// in their scope only). It works on names in memory, reads no store, and
// is what policy diff --impact, policy apply and restore show before they
// change anything.
//
// An entry (user, permission, "") is a change of the global answer: the
// check without a scope, and the check in every scope where no scoped
// membership of the user decides it. An entry (user, permission, scope)
// is a change of the answer in that scope while the global answer stays
// as it was. So a global grant is one entry, not one per scope, and the
// entries are exactly the differences of the who-can answers (globally,
// and in each scope a membership names) that the global ones do not
// already say.
package impact
