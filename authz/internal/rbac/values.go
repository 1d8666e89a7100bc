package rbac

import (
	"fmt"
	"time"

	"github.com/rolegate/rolegate/middleware"
)

// Bounds is the time window of a membership or a grant: it counts from
// StartsAt until ExpiresAt, each nil when unbounded (both nil: always).
// In JSON, starts_at and expires_at in RFC 3339, left out when nil.
type Bounds struct {
	StartsAt  *time.Time `json:"starts_at,omitempty"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// IsZero reports whether b bounds nothing.
func (b Bounds) IsZero() bool { return b.StartsAt == nil && b.ExpiresAt == nil }

// HeldAt reports whether a row with bounds b counts at t.
func (b Bounds) HeldAt(t time.Time) bool {
	return (b.StartsAt == nil || !t.Before(*b.StartsAt)) && (b.ExpiresAt == nil || t.Before(*b.ExpiresAt))
}

// Listed is an entry of a direct list that shows each row's bounds (a
// role's members, a role's own permissions, a user's roles): the row's
// name, its Bounds, and Held, whether it counts now. Such a list has every
// stored row, held now or not.
type Listed struct {
	Name string
	Bounds
	Held bool
}

// UserUntil is an entry of who-can with its end (WhichUsersCanUntil,
// EachWhichUserCanUntil, EachWhichUserCanInUntil): a user holding the
// permission now, and Until, when her holding ends as the rows stand (nil:
// no end). A user may hold it through several paths (a membership, the
// role's inherited roles, a grant): each holds until the earlier of its
// membership's and its grant's expires_at, and the user until the latest
// end of her paths held now, with no end when one of them has none.
type UserUntil struct {
	User string `json:"user"`
	// Scope, in a scope's who-can, is the scope when only memberships in
	// it grant the permission (as ScopedUser's).
	Scope string     `json:"scope,omitempty"`
	Until *time.Time `json:"until,omitempty"`
}

// ScopedListed is an entry of the scoped memberships read with their
// bounds, as Listed.
type ScopedListed struct {
	ScopedMembership
	Bounds
	Held bool
}

// AddOption is an option of the adds of a membership or a grant: it sets
// the bounds the row will have.
type AddOption func(*Bounds)

// Role is a role with its description.
type Role struct {
	Role        string `json:"role"`
	Description string `json:"description"`
}

// ScopedRole is an entry of GetUserRolesIn: Scope is empty for a global
// membership.
type ScopedRole struct {
	Role  string `json:"role"`
	Scope string `json:"scope,omitempty"`
}

// ScopedUser is an entry of GetRoleMembersIn and WhichUsersCanIn: Scope is
// empty when a global membership is what counts.
type ScopedUser struct {
	User  string `json:"user"`
	Scope string `json:"scope,omitempty"`
}

// ScopedMembership is a membership that holds in one scope only: an entry
// of EachScopedMembership and of GET /api/scoped_memberships.
type ScopedMembership struct {
	User  string `json:"user"`
	Role  string `json:"role"`
	Scope string `json:"scope"`
}

// Written is what one write did, for a caller that reads what it wrote
// elsewhere: Changed is the write's answer (created, deleted or changed),
// and Revision the token of a revision at which its effect holds (the
// revision it made; for a write that changed nothing, the client's
// revision read after it; empty when that read failed).
type Written struct {
	Changed  bool
	Revision string
}

// Grant is the path by which a user holds a permission: answers "why".
type Grant struct {
	// Membership is the role the user is a member of.
	Membership string `json:"membership"`
	// Scope is the scope of that membership; empty for a global one.
	Scope string `json:"scope,omitempty"`
	// Chain is the roles from Membership to GrantedBy, both included,
	// each inheriting from the next; one role when no inheritance is used.
	Chain []string `json:"chain"`
	// GrantedBy is the role the permission is granted to.
	GrantedBy string `json:"granted_by"`
	// MembershipBounds and GrantBounds are the time bounds of the
	// membership and of the grant, when they have some: the answer holds
	// until the first expires_at (nil: unbounded).
	MembershipBounds *Bounds `json:"membership_bounds,omitempty"`
	GrantBounds      *Bounds `json:"grant_bounds,omitempty"`
}

// RoleCounts is how much hangs on one role: what deleting it removes.
type RoleCounts struct {
	Permissions   int `json:"permissions"`
	Members       int `json:"members"`
	ScopedMembers int `json:"scoped_members"`
	Parents       int `json:"parents"`
	Children      int `json:"children"`
}

// ListWindow is the part of a list to read: the entries after After (a
// name; "" for the first), at most Limit of them (0: all). The Each
// methods read it from the store a bounded window at a time and hand each
// window to a callback, so a list of any length costs memory that does not
// grow with it.
type ListWindow struct {
	After string
	Limit int
}

// ScopedWindow is ListWindow for EachScopedMembership, whose entries are
// ordered by scope, user and role: the entries after After (the zero
// value: from the first), at most Limit of them (0: all). Only keeps the
// memberships of the scope, user and role it names ("": any).
type ScopedWindow struct {
	After ScopedMembership
	Limit int
	Only  ScopedMembership
}

// AuditRecord is one audited change or refusal, as a client reads its own.
// ID is opaque: unique among the client's records and a cursor for the
// next page, but neither ordered nor counting anything.
// Client is a keyed fingerprint of the client key, never the key; Resource
// never holds the plaintext of an encrypted name. RequestID is ours;
// ClientRequestID is the X-Request-ID the client sent, if any, kept apart
// and never trusted.
type AuditRecord struct {
	ID              int64     `json:"id"`
	At              time.Time `json:"at"`
	Client          string    `json:"client"`
	Action          string    `json:"action"`
	Resource        string    `json:"resource"`
	Outcome         string    `json:"outcome"`
	RequestID       string    `json:"request_id"`
	ClientRequestID string    `json:"client_request_id,omitempty"`
	RemoteAddr      string    `json:"remote_addr"`
	// Actor is who asked: "user:<name>" for a person (the name as the
	// audit log holds names), "key:<8 hex digits of the key's SHA-256>"
	// for a client key, "library" for a Go call, "anonymous" for a
	// request refused before anyone was recognised.
	Actor string `json:"actor"`
	// Reason is the request's X-Change-Reason, when it sent one.
	Reason string `json:"reason"`
	// Detail is what a change removed beside its resource, when it
	// removed more than it names: for del_role, RoleRemoved.
	Detail *RoleRemoved `json:"detail,omitempty"`
}

// RoleRemoved is what a role's deletion removed with it: the detail of its
// audit record. The memberships are counted here (the audit record holds
// no user name); the change feed names each, as a del_membership entry of
// the deletion's revision before its del_role.
type RoleRemoved struct {
	Grants            int64 `json:"grants"`
	Memberships       int64 `json:"memberships"`
	ScopedMemberships int64 `json:"scoped_memberships"`
	Parents           int64 `json:"parents"`
	Children          int64 `json:"children"`
}

// AuditQuery picks audit records: of one action and one actor when they
// are not "", older than the record whose id is Before (0: from the
// newest), at most Limit (0: DefaultAuditLimit).
type AuditQuery struct {
	Action, Actor string
	// Resource picks the records of one resource ("role:editor") and of
	// what lies under it ("membership:alice" picks
	// "membership:alice/editor"); "" every resource.
	Resource string
	// Since and Until, when set, pick the records at Since or later and
	// before Until.
	Since, Until time.Time
	Before       int64
	Limit        int
}

// CheckNames returns ErrInvalidName, naming the field, for the first bad
// name of kind/value pairs.
func CheckNames(kv ...string) error {
	for i := 0; i+1 < len(kv); i += 2 {
		if !middleware.ValidName(kv[i+1]) {
			return fmt.Errorf("%w: %s must be 1 to %d characters of valid UTF-8, with no control or invisible format characters, no '/', and no leading or trailing space", ErrInvalidName, kv[i], middleware.MaxNameLength)
		}
	}
	return nil
}

// Check is one question of a batch of checks (Client.CheckMany, POST
// /api/check): does User hold Permission, in Scope when not empty.
type Check struct {
	User       string `json:"user"`
	Permission string `json:"permission"`
	Scope      string `json:"scope,omitempty"`
}
