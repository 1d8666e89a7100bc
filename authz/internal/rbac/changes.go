package rbac

import (
	"errors"
	"time"
)

// ErrChangesGone: a change feed read asked for the changes after a
// revision older than the feed keeps (AUTH_CHANGES_RETENTION; HTTP 410).
// The reader resyncs from a backup, which records the revision it was
// taken at, and follows the feed from there.
var ErrChangesGone = errors.New("changes gone")

// Change is one operation of the change feed (GET /api/changes,
// Client.Changes): what one write did, with only the fields its operation
// has.
type Change struct {
	// Revision is the token (see Client.AtLeast) of the revision the
	// operation made; the operations of a batch share one.
	Revision string `json:"revision"`
	// Op is the operation as the audit log names it: add_role,
	// set_description, del_role, add_permission, del_permission,
	// add_membership, del_membership, add_inheritance, del_inheritance,
	// rename_user, expire_membership, expire_permission (a time-bounded
	// row removed when it expired).
	Op         string `json:"op"`
	Role       string `json:"role,omitempty"`
	Permission string `json:"permission,omitempty"`
	User       string `json:"user,omitempty"`
	// Scope: a scoped membership's scope; absent for a global one.
	Scope  string `json:"scope,omitempty"`
	Parent string `json:"parent,omitempty"`
	// Description: add_role's and set_description's description.
	Description string `json:"description,omitempty"`
	// NewUser and Merge: rename_user's new name, and whether it merged
	// into memberships the new name held.
	NewUser string `json:"new_user,omitempty"`
	Merge   bool   `json:"merge,omitempty"`
	// StartsAt and ExpiresAt: an add's time bounds, when it has any (an
	// add of a row that exists sets its bounds to exactly these).
	StartsAt  *time.Time `json:"starts_at,omitempty"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	// Actor and Reason are as the audit log records them (see
	// AuditRecord): who made the change and their X-Change-Reason.
	Actor  string `json:"actor,omitempty"`
	Reason string `json:"reason,omitempty"`
	// At is when the change was made.
	At time.Time `json:"at"`
}

// Changes is a page of the change feed: changes oldest first, and Next,
// where to read after next (a revision token, or "r42.999" when the page
// ended inside revision r42, after its change 999).
type Changes struct {
	Changes []Change `json:"changes"`
	Next    string   `json:"next"`
}
