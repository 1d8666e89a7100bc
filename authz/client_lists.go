package authz

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/limits"
	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/authz/internal/rest"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// The values the library API and the REST API share, defined in
// authz/internal/rbac; see each type there.
type (
	// Role is a role with its description.
	Role = rbac.Role
	// Bounds is the time window of a membership or a grant (see
	// ExpiresAt): StartsAt and ExpiresAt, nil when unbounded.
	Bounds = rbac.Bounds
	// ScopedRole is an entry of GetUserRolesIn and EachUserRoleIn: Scope
	// is empty for a global membership.
	ScopedRole = rbac.ScopedRole
	// ScopedUser is an entry of GetRoleMembersIn, WhichUsersCanIn and
	// their Each methods: Scope is empty when a global membership is what
	// counts.
	ScopedUser = rbac.ScopedUser
	// ScopedMembership is an entry of EachScopedMembership and of GET
	// /api/scoped_memberships: a membership that holds in one scope only.
	ScopedMembership = rbac.ScopedMembership
	// Grant is the path by which a user holds a permission: answers "why".
	Grant = rbac.Grant
	// RoleCounts is how much hangs on one role: what deleting it removes.
	RoleCounts = rbac.RoleCounts
	// RoleRemoved is what a role's deletion removed with it: the Detail of
	// its audit record.
	RoleRemoved = rbac.RoleRemoved
	// ListWindow is the part of a list an Each method reads: the entries
	// after After ("" for the first), at most Limit of them (0: all).
	ListWindow = rbac.ListWindow
	// ScopedWindow is ListWindow for EachScopedMembership.
	ScopedWindow = rbac.ScopedWindow
	// AuditRecord is one audited change or refusal (AuditRecords).
	AuditRecord = rbac.AuditRecord
	// AuditQuery picks audit records (AuditRecordsWhere).
	AuditQuery = rbac.AuditQuery
)

// Typed errors of the library API; test them with errors.Is. Each is the
// same value as its namesake in authz/internal/rbac, which documents it.
var (
	// ErrRoleNotFound: a grant, a membership or a listing named a role that
	// does not exist in the client's namespace (HTTP 404).
	ErrRoleNotFound = rbac.ErrRoleNotFound
	// ErrInvalidName: a role, permission or user name breaks the naming
	// rule (HTTP 400). Nothing was stored.
	ErrInvalidName = rbac.ErrInvalidName
	// ErrInvalidClientKey: the client key is not a UUID version 4 (HTTP 401).
	ErrInvalidClientKey = rbac.ErrInvalidClientKey
	// ErrUnavailable: the store could not be reached (HTTP 503). Guards
	// fail closed on it.
	ErrUnavailable = rbac.ErrUnavailable
	// ErrNoClientKey: a guard or HostClient was asked for, but no host
	// client key is configured (Config.ClientKey, AUTH_CLIENT_KEY).
	ErrNoClientKey = rbac.ErrNoClientKey
	// ErrCycle: an inheritance would make a role inherit from itself,
	// directly or through others (HTTP 409). Nothing was stored.
	ErrCycle = rbac.ErrCycle
	// ErrUserExists: a rename's new name already holds memberships, and
	// the rename was not asked to merge (HTTP 409). Nothing was changed.
	ErrUserExists = rbac.ErrUserExists
	// ErrShapeLimit: an inheritance would give a role a chain of
	// inheritances longer than Config.MaxInheritanceDepth, or more ancestors
	// than Config.MaxRoleAncestors (HTTP 422). The error names the limit and
	// its setting. Nothing was stored.
	ErrShapeLimit = rbac.ErrShapeLimit
	// ErrAlreadyExpired: a membership or grant was given an expiry
	// (ExpiresAt) that has already passed (HTTP 422). Nothing was stored.
	ErrAlreadyExpired = rbac.ErrAlreadyExpired
	// ErrClosed: the value returned by Open was closed.
	ErrClosed = rbac.ErrClosed
	// ErrEncryptionRequired: the store's encryption state is not this
	// process's (encryption turned on, or the key rotated, by another
	// replica); the write is refused (HTTP 503). Wraps ErrUnavailable.
	ErrEncryptionRequired = rbac.ErrEncryptionRequired
	// ErrQuotaExceeded: in open mode, a write would take a namespace past
	// AUTH_MAX_ROWS_PER_CLIENT rows or the store past AUTH_MAX_NAMESPACES
	// namespaces (HTTP 507). Nothing was stored.
	ErrQuotaExceeded = rbac.ErrQuotaExceeded
	// ErrRateLimited: in open mode, the client is over its write rate
	// (AUTH_OPEN_WRITES_PER_SECOND; HTTP 429 with Retry-After). Nothing was
	// stored; errors.As into a *RateLimitError says when to retry.
	ErrRateLimited = rbac.ErrRateLimited

	// errBadRequest: a malformed batch, body or query parameter (HTTP 400).
	errBadRequest = rbac.ErrBadRequest
)

// listWindow is how many entries an Each method reads from the store, and
// holds in memory, at a time. A variable so that tests can make lists span
// many windows.
var listWindow = 1000

// The Each methods read a list window by window: fn gets each window of
// entries, in the order of the list (by name, Go's byte order), and then
// the window is forgotten, so a list of any length costs memory that grows
// with the window (1,000 entries), not with the list. An error from fn
// stops the list and is returned. Windows are separate reads: an entry
// added or removed meanwhile may or may not be listed, but none is listed
// twice. The REST API answers every list through them.

func (c *Client) window(w ListWindow) storage.ListWindow {
	return storage.ListWindow{After: middleware.NormalizeName(w.After), Limit: w.Limit, Window: listWindow}
}

// eachName normalises and checks the name of a per-name list, then reads it.
func (c *Client) eachName(kind, name string, read func(string) error) error {
	name = middleware.NormalizeName(name)
	if err := checkNames(kind, name); err != nil {
		return err
	}
	return read(name)
}

// eachScoped is eachName for the lists of one scope.
func (c *Client) eachScoped(scope, kind, name string, read func(scope, name string) error) error {
	scope, name = middleware.NormalizeName(scope), middleware.NormalizeName(name)
	if err := checkNames("scope", scope, kind, name); err != nil {
		return err
	}
	return read(scope, name)
}

// roleWindow bounds EachRole's window below listWindow: a role carries
// its description (up to 1,024 characters), so a window of 1,000 roles
// was over a megabyte, which a REST reader that stops reading held for as
// long as its connection lasted (40 such readers: +181 MiB).
const roleWindow = 100

// EachRole reads the client's roles with their descriptions (Roles).
func (c *Client) EachRole(ctx context.Context, w ListWindow, fn func([]Role) error) error {
	win := c.window(w)
	win.Window = min(win.Window, roleWindow)
	return readPages(ctx, c, func(rows []storage.Role) error {
		page := make([]Role, len(rows))
		for i, r := range rows {
			page[i] = Role{Role: r.Name, Description: r.Description}
		}
		return fn(page)
	}, func(ctx context.Context, db bun.IDB, fn func([]storage.Role) error) error {
		return storage.EachRole(ctx, db, c.scope, win, fn)
	})
}

// EachUserPermission reads the permissions user holds through global
// memberships (GetUserPermissions).
func (c *Client) EachUserPermission(ctx context.Context, user string, w ListWindow, fn func([]string) error) error {
	return c.eachName("user", user, func(user string) error {
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]string) error) error {
			return storage.Each(ctx, db, c.scope, storage.PermissionsOfUser, "", user, c.window(w), fn)
		})
	})
}

// EachUserPermissionIn reads the permissions user holds in scope
// (GetUserPermissionsIn).
func (c *Client) EachUserPermissionIn(ctx context.Context, scope, user string, w ListWindow, fn func([]string) error) error {
	return c.eachScoped(scope, "user", user, func(scope, user string) error {
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]string) error) error {
			return storage.Each(ctx, db, c.scope, storage.PermissionsOfUser, scope, user, c.window(w), fn)
		})
	})
}

// EachUserRole reads the roles user is a global member of (GetUserRoles).
func (c *Client) EachUserRole(ctx context.Context, user string, w ListWindow, fn func([]string) error) error {
	return c.eachName("user", user, func(user string) error {
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]string) error) error {
			return storage.Each(ctx, db, c.scope, storage.RolesOfUser, "", user, c.window(w), fn)
		})
	})
}

// EachUserRoleIn reads user's roles globally and in scope
// (GetUserRolesIn).
func (c *Client) EachUserRoleIn(ctx context.Context, scope, user string, w ListWindow, fn func([]ScopedRole) error) error {
	return c.eachScoped(scope, "user", user, func(scope, user string) error {
		return readPages(ctx, c, func(m []storage.Member) error {
			page := make([]ScopedRole, len(m))
			for i, e := range m {
				page[i] = ScopedRole{Role: e.Name, Scope: e.Scope}
			}
			return fn(page)
		}, func(ctx context.Context, db bun.IDB, fn func([]storage.Member) error) error {
			return storage.EachMember(ctx, db, c.scope, storage.RolesOfUser, scope, user, c.window(w), fn)
		})
	})
}

// EachRolePermission reads role's own permissions; ErrRoleNotFound when it
// does not exist (GetPermissions).
func (c *Client) EachRolePermission(ctx context.Context, role string, w ListWindow, fn func([]string) error) error {
	return c.eachName("role", role, func(role string) error {
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]string) error) error {
			return storage.Each(ctx, db, c.scope, storage.PermissionsOfRole, "", role, c.window(w), fn)
		})
	})
}

// EachEffectivePermission reads role's permissions, its own and inherited;
// ErrRoleNotFound when it does not exist (GetEffectivePermissions).
func (c *Client) EachEffectivePermission(ctx context.Context, role string, w ListWindow, fn func([]string) error) error {
	return c.eachName("role", role, func(role string) error {
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]string) error) error {
			return storage.Each(ctx, db, c.scope, storage.EffectivePermissionsOfRole, "", role, c.window(w), fn)
		})
	})
}

// EachRoleMember reads role's global members; ErrRoleNotFound when it
// does not exist (GetRoleMembers).
func (c *Client) EachRoleMember(ctx context.Context, role string, w ListWindow, fn func([]string) error) error {
	return c.eachName("role", role, func(role string) error {
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]string) error) error {
			return storage.Each(ctx, db, c.scope, storage.MembersOfRole, "", role, c.window(w), fn)
		})
	})
}

// EachRoleMemberIn reads role's members globally and in scope
// (GetRoleMembersIn).
func (c *Client) EachRoleMemberIn(ctx context.Context, scope, role string, w ListWindow, fn func([]ScopedUser) error) error {
	return c.eachScoped(scope, "role", role, func(scope, role string) error {
		return readPages(ctx, c, scopedUserPages(fn), func(ctx context.Context, db bun.IDB, fn func([]storage.Member) error) error {
			return storage.EachMember(ctx, db, c.scope, storage.MembersOfRole, scope, role, c.window(w), fn)
		})
	})
}

// EachWhichRoleCan reads the roles granted the permission (WhichRolesCan).
func (c *Client) EachWhichRoleCan(ctx context.Context, name string, w ListWindow, fn func([]string) error) error {
	return c.eachName("permission", name, func(name string) error {
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]string) error) error {
			return storage.Each(ctx, db, c.scope, storage.RolesWithPermission, "", name, c.window(w), fn)
		})
	})
}

// EachWhichUserCan reads the users holding the permission through global
// memberships (WhichUsersCan).
func (c *Client) EachWhichUserCan(ctx context.Context, name string, w ListWindow, fn func([]string) error) error {
	return c.eachName("permission", name, func(name string) error {
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]string) error) error {
			return storage.Each(ctx, db, c.scope, storage.UsersWithPermission, "", name, c.window(w), fn)
		})
	})
}

// EachWhichUserCanIn reads the users holding the permission in scope
// (WhichUsersCanIn).
func (c *Client) EachWhichUserCanIn(ctx context.Context, scope, name string, w ListWindow, fn func([]ScopedUser) error) error {
	return c.eachScoped(scope, "permission", name, func(scope, name string) error {
		return readPages(ctx, c, scopedUserPages(fn), func(ctx context.Context, db bun.IDB, fn func([]storage.Member) error) error {
			return storage.EachMember(ctx, db, c.scope, storage.UsersWithPermission, scope, name, c.window(w), fn)
		})
	})
}

// EachParent reads the roles role inherits from directly; ErrRoleNotFound
// when it does not exist (GetParents).
func (c *Client) EachParent(ctx context.Context, role string, w ListWindow, fn func([]string) error) error {
	return c.eachName("role", role, func(role string) error {
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]string) error) error {
			return storage.Each(ctx, db, c.scope, storage.ParentsOfRole, "", role, c.window(w), fn)
		})
	})
}

// EachChild reads the roles that inherit from role directly, the reverse
// of EachParent; ErrRoleNotFound when it does not exist.
func (c *Client) EachChild(ctx context.Context, role string, w ListWindow, fn func([]string) error) error {
	return c.eachName("role", role, func(role string) error {
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]string) error) error {
			return storage.Each(ctx, db, c.scope, storage.ChildrenOfRole, "", role, c.window(w), fn)
		})
	})
}

// EachScopedMembership reads every scoped membership of the client, in
// every scope, ordered by scope, user and role; those of one scope, user
// or role when w.Only names them.
func (c *Client) EachScopedMembership(ctx context.Context, w ScopedWindow, fn func([]ScopedMembership) error) error {
	norm := func(m ScopedMembership) storage.ScopedMembership {
		return storage.ScopedMembership{Scope: middleware.NormalizeName(m.Scope), User: middleware.NormalizeName(m.User),
			Role: middleware.NormalizeName(m.Role)}
	}
	win := storage.ScopedWindow{After: norm(w.After), Limit: w.Limit, Window: listWindow, Only: norm(w.Only)}
	return readPages(ctx, c, func(rows []storage.ScopedMembership) error {
		page := make([]ScopedMembership, len(rows))
		for i, m := range rows {
			page[i] = ScopedMembership{User: m.User, Role: m.Role, Scope: m.Scope}
		}
		return fn(page)
	}, func(ctx context.Context, db bun.IDB, fn func([]storage.ScopedMembership) error) error {
		return storage.EachScopedMembership(ctx, db, c.scope, win, fn)
	})
}

// GetRole returns one role with its description; ErrRoleNotFound when it
// does not exist.
func (c *Client) GetRole(ctx context.Context, role string) (Role, error) {
	role = middleware.NormalizeName(role)
	if err := checkNames("role", role); err != nil {
		return Role{}, err
	}
	r, err := readValue(ctx, c, func(ctx context.Context, db bun.IDB) (storage.Role, error) {
		return storage.GetRole(ctx, db, c.scope, role)
	})
	if err != nil {
		return Role{}, err
	}
	return Role{Role: r.Name, Description: r.Description}, nil
}

// CountRole counts what hangs on role: its direct grants, global and
// scoped memberships, and inheritance links either way (all zero when the
// role does not exist).
func (c *Client) CountRole(ctx context.Context, role string) (RoleCounts, error) {
	_, n, err := c.roleDetail(ctx, role, false)
	if errors.Is(err, ErrRoleNotFound) {
		return RoleCounts{}, nil
	}
	return n, err
}

// RoleDetail is GetRole and CountRole in one read of the store;
// ErrRoleNotFound when the role does not exist.
func (c *Client) RoleDetail(ctx context.Context, role string) (Role, RoleCounts, error) {
	return c.roleDetail(ctx, role, true)
}

func (c *Client) roleDetail(ctx context.Context, role string, describe bool) (Role, RoleCounts, error) {
	role = middleware.NormalizeName(role)
	if err := checkNames("role", role); err != nil {
		return Role{}, RoleCounts{}, err
	}
	var n storage.RoleCounts
	r, err := readValue(ctx, c, func(ctx context.Context, db bun.IDB) (r storage.Role, err error) {
		r, n, err = storage.RoleDetail(ctx, db, c.scope, role, describe)
		return r, err
	})
	if err != nil {
		return Role{}, RoleCounts{}, err
	}
	return Role{Role: r.Name, Description: r.Description}, RoleCounts{Permissions: n.Permissions, Members: n.Members,
		ScopedMembers: n.ScopedMembers, Parents: n.Parents, Children: n.Children}, nil
}

// AuditRecords returns the client's own audit records, newest first: at
// most limit of them, older than the record whose id is before (0: from
// the newest), of one action only unless action is "". A client sees
// only records under its own fingerprint. It is AuditRecordsWhere with
// no actor.
func (c *Client) AuditRecords(ctx context.Context, action string, before int64, limit int) ([]AuditRecord, error) {
	return c.AuditRecordsWhere(ctx, AuditQuery{Action: action, Before: before, Limit: limit})
}

// AuditRecordsWhere returns the client's own audit records that q picks,
// newest first. Ids are opaque: a keyed permutation of the table's row
// ids (one sequence for every client), so that their gaps say nothing of
// other clients' records; q.Before takes the id of a record, as a cursor.
// q.Actor "user:<name>" finds that person's records, also when names are
// stored encrypted.
func (c *Client) AuditRecordsWhere(ctx context.Context, q AuditQuery) ([]AuditRecord, error) {
	f := storage.AuditFilter{Client: c.fingerprint, Action: q.Action, Actor: q.Actor, Resource: q.Resource,
		Since: q.Since, Until: q.Until, Limit: q.Limit}
	if f.Limit <= 0 {
		f.Limit = rest.DefaultAuditLimit
	}
	if q.Before != 0 {
		row, err := c.az.auditIDs.Decode(q.Before)
		if err != nil {
			return nil, fmt.Errorf("%w: before: %w", errBadRequest, err)
		}
		f.Before = row
	}
	if name, ok := strings.CutPrefix(q.Actor, storage.ActorUserPrefix); ok {
		f.Actor = storage.ActorUserPrefix + c.scope.AuditUser(middleware.NormalizeName(name))
	}
	recs, err := storage.ListAuditBy(ctx, c.az.db, f)
	if err != nil {
		return nil, err
	}
	out := make([]AuditRecord, len(recs))
	for i, r := range recs {
		out[i] = AuditRecord{ID: c.az.auditIDs.Encode(r.ID), At: r.At, Client: r.Client, Action: r.Action, Resource: r.Resource,
			Outcome: r.Outcome, RequestID: r.RequestID, ClientRequestID: r.ClientRequestID, RemoteAddr: r.RemoteAddr,
			Actor: r.Actor, Reason: r.Reason, Detail: auditDetail(r.Action, r.Detail)}
	}
	return out, nil
}

func scopedUserPages(fn func([]ScopedUser) error) func([]storage.Member) error {
	return func(m []storage.Member) error {
		page := make([]ScopedUser, len(m))
		for i, e := range m {
			page[i] = ScopedUser{User: e.Name, Scope: e.Scope}
		}
		return fn(page)
	}
}

// EachUser reads the users that hold at least one membership, global or
// scoped, sorted, window by window (GET /api/users).
func (c *Client) EachUser(ctx context.Context, w ListWindow, fn func([]string) error) error {
	return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]string) error) error {
		return storage.Each(ctx, db, c.scope, storage.UsersWithMembership, "", "", c.window(w), fn)
	})
}

// CountRoles counts the client's roles whose names start with prefix (""
// for every role), in one read: the total beside a page of EachRole (the
// X-Total-Count of GET /api/roles).
func (c *Client) CountRoles(ctx context.Context, prefix string) (int, error) {
	return readValue(ctx, c, func(ctx context.Context, db bun.IDB) (int, error) {
		return storage.Roles.Count(ctx, db, c.scope, middleware.NormalizeName(prefix))
	})
}

// CountUsers counts the users EachUser lists whose names start with
// prefix ("" for every one), in one read (the X-Total-Count of GET
// /api/users). With encrypted names and a prefix, the read decrypts every
// user name of the client once, as a list window does; during a key
// rotation, a user whose memberships are stored under both keys counts
// twice until the rotation's pass has reached it.
func (c *Client) CountUsers(ctx context.Context, prefix string) (int, error) {
	return readValue(ctx, c, func(ctx context.Context, db bun.IDB) (int, error) {
		return storage.UsersWithMembership.Count(ctx, db, c.scope, middleware.NormalizeName(prefix))
	})
}

// RateLimitError is the error of a write refused by the open mode's write
// rate: errors.Is(err, ErrRateLimited) holds, Setting names the limit and
// RetryAfter says when a retry may succeed.
type RateLimitError = limits.Refused

// auditDetail reads a record's detail: what a del_role removed; nil for
// any other record, or one written before details were kept.
func auditDetail(action, detail string) *RoleRemoved {
	if action != "del_role" || detail == "" {
		return nil
	}
	var r RoleRemoved
	if json.Unmarshal([]byte(detail), &r) != nil {
		return nil
	}
	return &r
}
