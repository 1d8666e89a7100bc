package rest

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// Client is the library API of one client key as the handlers call it:
// the methods of the same *authz.Client a host calls. A handler checks
// and decodes a request, calls one of these, and writes the answer; it
// never reads the store itself.
type Client interface {
	// Writes is the write API with revision tokens (each write's answer
	// carries the token of its revision, for the Rolegate-Revision header).
	Writes() Writer

	GetRole(ctx context.Context, role string) (rbac.Role, error)
	RoleDetail(ctx context.Context, role string) (rbac.Role, rbac.RoleCounts, error)

	HasPermission(ctx context.Context, role, name string) (bool, error)
	HasEffectivePermission(ctx context.Context, role, name string) (bool, error)
	ExplainRolePermission(ctx context.Context, role, permission string) ([]string, error)

	HasMembership(ctx context.Context, user, role string) (bool, error)
	HasMembershipIn(ctx context.Context, scope, user, role string) (bool, error)

	UserHasPermission(ctx context.Context, user, permission string) (bool, error)
	UserHasPermissionIn(ctx context.Context, scope, user, permission string) (bool, error)
	ExplainPermission(ctx context.Context, user, permission string) (*rbac.Grant, error)
	ExplainPermissionIn(ctx context.Context, scope, user, permission string) (*rbac.Grant, error)
	CheckMany(ctx context.Context, checks []rbac.Check) ([]bool, error)

	EachRole(ctx context.Context, w rbac.ListWindow, fn func([]rbac.Role) error) error
	EachUserPermission(ctx context.Context, user string, w rbac.ListWindow, fn func([]string) error) error
	EachUserPermissionIn(ctx context.Context, scope, user string, w rbac.ListWindow, fn func([]string) error) error
	EachUserRole(ctx context.Context, user string, w rbac.ListWindow, fn func([]string) error) error
	EachUserRoleIn(ctx context.Context, scope, user string, w rbac.ListWindow, fn func([]rbac.ScopedRole) error) error
	EachRolePermission(ctx context.Context, role string, w rbac.ListWindow, fn func([]string) error) error
	EachEffectivePermission(ctx context.Context, role string, w rbac.ListWindow, fn func([]string) error) error
	EachRoleMember(ctx context.Context, role string, w rbac.ListWindow, fn func([]string) error) error
	EachRoleMemberIn(ctx context.Context, scope, role string, w rbac.ListWindow, fn func([]rbac.ScopedUser) error) error
	EachWhichRoleCan(ctx context.Context, name string, w rbac.ListWindow, fn func([]string) error) error
	EachWhichUserCan(ctx context.Context, name string, w rbac.ListWindow, fn func([]string) error) error
	EachWhichUserCanIn(ctx context.Context, scope, name string, w rbac.ListWindow, fn func([]rbac.ScopedUser) error) error
	// EachWhichUserCanUntil and EachWhichUserCanInUntil are
	// EachWhichUserCan and EachWhichUserCanIn with each user's end.
	EachWhichUserCanUntil(ctx context.Context, name string, w rbac.ListWindow, fn func([]rbac.UserUntil) error) error
	EachWhichUserCanInUntil(ctx context.Context, scope, name string, w rbac.ListWindow, fn func([]rbac.UserUntil) error) error
	EachParent(ctx context.Context, role string, w rbac.ListWindow, fn func([]string) error) error
	EachChild(ctx context.Context, role string, w rbac.ListWindow, fn func([]string) error) error
	EachUser(ctx context.Context, w rbac.ListWindow, fn func([]string) error) error
	// CountRoles and CountUsers count the entries of EachRole and EachUser
	// whose names start with a prefix, in one read (X-Total-Count).
	CountRoles(ctx context.Context, prefix string) (int, error)
	CountUsers(ctx context.Context, prefix string) (int, error)
	EachScopedMembership(ctx context.Context, w rbac.ScopedWindow, fn func([]rbac.ScopedMembership) error) error
	// The direct lists with every stored row, each with its bounds and
	// whether it counts now.
	EachRoleMemberBounded(ctx context.Context, role string, w rbac.ListWindow, fn func([]rbac.Listed) error) error
	EachRolePermissionBounded(ctx context.Context, role string, w rbac.ListWindow, fn func([]rbac.Listed) error) error
	EachUserRoleBounded(ctx context.Context, user string, w rbac.ListWindow, fn func([]rbac.Listed) error) error
	EachScopedMembershipBounded(ctx context.Context, w rbac.ScopedWindow, fn func([]rbac.ScopedListed) error) error
	// MembershipBounds and PermissionBounds read one row's bounds, held
	// now or not: found when the row exists, held when it counts now.
	MembershipBounds(ctx context.Context, scope, user, role string) (b rbac.Bounds, found, held bool, err error)
	PermissionBounds(ctx context.Context, role, name string) (b rbac.Bounds, found, held bool, err error)
	AuditRecordsWhere(ctx context.Context, q rbac.AuditQuery) ([]rbac.AuditRecord, error)
	// WaitChanges reads the change feed after a revision token, waiting
	// up to wait for a change when there is none yet.
	WaitChanges(ctx context.Context, after string, limit int, wait time.Duration) (rbac.Changes, error)

	// Revision is the token of the client's current revision; AtLeast
	// brings the client's cache up to a token's revision (an error
	// wrapping feed.ErrInvalid when the token is malformed or the
	// store has not reached it).
	Revision(ctx context.Context) (string, error)
	AtLeast(ctx context.Context, token string) error
}

// Caller is the Client of the request's key, with what the REST layer
// needs beside the library API: the names the audit log gives a refused
// request, the description rule (checked before the write so that a
// refusal of the REST layer's own is audited), and the batch.
type Caller interface {
	Client
	// Fingerprint is the keyed fingerprint of the client key that the
	// audit log records, never the key.
	Fingerprint() string
	// HoldsNothing reports whether the client's refusals go unaudited: in
	// open mode, its namespace holds no row (anybody can make up keys).
	HoldsNothing(ctx context.Context) bool
	// ScopesOf lists the scopes where user holds scoped memberships,
	// sorted, at most limit.
	ScopesOf(ctx context.Context, user string, limit int) ([]string, error)
	// KeyActor is how the audit log names the key's requests:
	// "key:<8 hex digits of its SHA-256>".
	KeyActor() string
	// HostNamespace reports whether this is the host's namespace (the
	// client of Config.ClientKey): the one its guards and its login read.
	HostNamespace() bool
	// AuditUser and AuditPermission are a user or a permission as the
	// audit log may hold it: its stored (encrypted) form when encryption
	// is on, never the plaintext.
	AuditUser(user string) string
	AuditPermission(name string) string
	// GrantResource, MemberResource, InheritResource and RenameResource
	// name a grant, a membership, an inheritance link and a rename as the library's own audit
	// records of writes do.
	GrantResource(role, name string) string
	MemberResource(user, role string) string
	InheritResource(role, parent string) string
	RenameResource(user, newName string) string
	// CheckDescription is the rule for a role's description
	// (rbac.ErrInvalidName when broken).
	CheckDescription(description string) error
	// WhereCanScopes is Client.WhereCan with the scopes as the decision
	// cache holds them: sorted, shared, never to be modified.
	WhereCanScopes(ctx context.Context, user, permission string) (global bool, scopes []string, err error)
	// RunBatch decodes ops (each one JSON object of the body's
	// "operations", as sent) and runs them in one transaction (see
	// batch.go for the errors it returns), returning with their results
	// the revision token of the batch.
	RunBatch(ctx context.Context, ops []json.RawMessage) ([]BatchResult, string, error)
	// RunBatchStream is RunBatch for a streamed batch: every operation is
	// checked, then all run in one transaction a chunk at a time; it
	// returns how many operations had each result.
	RunBatchStream(ctx context.Context, ops OperationStream) (map[string]int, string, error)
}

// Writer is the library's write API as the handlers call it
// (authz.Writes): each write returns its answer and the token of its
// revision as one value.
type Writer interface {
	AddRole(ctx context.Context, role, description string) (rbac.Written, error)
	SetRoleDescription(ctx context.Context, role, description string) (rbac.Written, error)
	DelRole(ctx context.Context, role string) (rbac.Written, error)
	// AddPermission, AddMembership and AddMembershipIn set the row's
	// bounds to exactly those of their options (none without).
	AddPermission(ctx context.Context, role, name string, opts ...rbac.AddOption) (rbac.Written, error)
	DelPermission(ctx context.Context, role, name string) (rbac.Written, error)
	AddMembership(ctx context.Context, user, role string, opts ...rbac.AddOption) (rbac.Written, error)
	DelMembership(ctx context.Context, user, role string) (rbac.Written, error)
	AddMembershipIn(ctx context.Context, scope, user, role string, opts ...rbac.AddOption) (rbac.Written, error)
	DelMembershipIn(ctx context.Context, scope, user, role string) (rbac.Written, error)
	AddInheritance(ctx context.Context, role, parent string) (rbac.Written, error)
	DelInheritance(ctx context.Context, role, parent string) (rbac.Written, error)
	RenameUser(ctx context.Context, user, newName string, merge bool) (int, rbac.Written, error)
}

// Host is what the REST layer asks of the value that mounts it.
type Host interface {
	// Caller returns the Caller of a client key that ClientKeyAuth
	// accepted.
	Caller(clientKey string) (Caller, error)
	// RequestContext is the request's context carrying what the audit log
	// records of it (request ids, the remote address).
	RequestContext(c *gin.Context) context.Context
	// AuditRefusal records a refused request under the client's
	// fingerprint ("" when no key was accepted), subject to the refusal
	// budget.
	AuditRefusal(ctx context.Context, fingerprint, action, resource string, err error)
	// AdmitBatch is asked before a batch's body is read. In open mode it
	// returns the batch's gate, or a *limits.Refused (429) when the client
	// has no write left or a batch in flight already; with admin keys, a
	// nil gate: nothing is bounded.
	AdmitBatch(cl Caller) (BatchGate, error)
	// CheckGate is asked before the body of POST /api/check is read: in
	// open mode the gate its bytes are taken through; with admin keys,
	// nil: nothing is bounded.
	CheckGate() CheckGate
}

// CheckGate bounds the bytes of check bodies that all clients' requests
// hold at once in open mode (each request holds its own client's read in
// flight already).
type CheckGate interface {
	// Take reserves n more bytes of body, or returns a *limits.Refused
	// (429) when all clients' check bodies hold too much already.
	Take(n int64) error
	// Release gives back what the request took; call it once.
	Release()
}

// BatchGate takes one batch through the open mode's limits: the client's
// own (one batch at a time, taken by AdmitBatch), the bytes of body all
// clients' batches may hold at once (Take, as the body is read), and the
// batches of all clients running at once (Run, once the body is read):
// a client sending its body slowly holds only its own slot and what it
// has sent, never a slot that every other client's batches need.
type BatchGate interface {
	// Take reserves n more bytes of body, or returns a *limits.Refused
	// (429) when all clients' batches hold too much already.
	Take(n int64) error
	// Run takes a slot of the batches running, or returns a
	// *limits.Refused (429) when they are all taken.
	Run() error
	// Release gives back everything the batch took; call it once.
	Release()
}
