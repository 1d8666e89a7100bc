package authz

// Hooks for role inheritance and scoped memberships, which come with the
// decision engine v2 (issue 13, another branch). Until that is merged,
// this build has neither: operations that need them are refused (400,
// "needs the decision engine v2"), and exports hold none, which is exact
// for a store that cannot hold any. After the merge, replace the bodies
// below with calls to the engine's storage functions; nothing else of the
// batch, policy or backup code needs to change.

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// errNeedsEngineV2 refuses what this build cannot store.
var errNeedsEngineV2 = fmt.Errorf("%w: role inheritance and scoped memberships need rolegate's decision engine v2, not in this build", errBadRequest)

// inheritanceOp runs add_inheritance or del_inheritance.
// ENGINE V2 HOOK: storage's add/remove inheritance (cycle: ErrCycle, 409).
func (c *Client) inheritanceOp(ctx context.Context, tx bun.IDB, op Operation) (bool, error) {
	return false, errNeedsEngineV2
}

// scopedMembershipOp runs add_membership or del_membership with a scope.
// ENGINE V2 HOOK: storage's scoped add/delete membership.
func (c *Client) scopedMembershipOp(ctx context.Context, tx bun.IDB, op Operation) (bool, error) {
	return false, errNeedsEngineV2
}

// readParents lists every role's direct parents, for exports.
// ENGINE V2 HOOK: read the inheritance table of the namespace.
func (c *Client) readParents(ctx context.Context, db bun.IDB) (map[string][]string, error) {
	return nil, nil
}

// readScopedMemberships lists every scoped membership, for exports.
// ENGINE V2 HOOK: read the scoped memberships of the namespace.
func (c *Client) readScopedMemberships(ctx context.Context, db bun.IDB) ([]PolicyMembership, error) {
	return nil, nil
}
