package authz

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/cache"
	"github.com/rolegate/rolegate/authz/internal/feed"
	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
)

// Client is the library API of one client key. Get it from Authz.Client.
// Every method takes a context first and returns the typed errors of this
// package. Creation is idempotent (created reports whether anything was
// added); deletion reports whether anything was deleted; lists are sorted
// by name and deduplicated.
type Client struct {
	az *Authz
	// strict and metrics are az's, copied here for the warm check: one
	// pointer less to follow on every check.
	strict      bool
	metrics     *meters
	plain       bool // neither strict nor metrics: the warm check is the cache's alone
	scope       storage.Scope
	fingerprint string
	cache       *cache.Cache
	// follow is the client as the change feed follows it: the revision
	// its cache reflects, kept right when other processes write.
	follow *feed.Follower
	used   atomic.Int64 // unix seconds of the last Authz.Client call, for eviction
	// held: the namespace was found holding a row (see holdsNothing).
	held atomic.Bool
}

func (c *Client) touch() {
	if now := time.Now().Unix(); c.used.Load() != now {
		c.used.Store(now)
	}
}

// MaxDescriptionLength is the longest role description, in characters.
const MaxDescriptionLength = 1024

// AddRole creates a role. Adding one that exists changes nothing (not
// even its description) and reports created=false.
func (c *Client) AddRole(ctx context.Context, role, description string) (created bool, err error) {
	return answered(c.addRole(ctx, role, description))
}

func (c *Client) addRole(ctx context.Context, role, description string) (written, error) {
	role = middleware.NormalizeName(role)
	if err := checkNames("role", role); err != nil {
		return written{}, err
	}
	if err := checkDescription(description); err != nil {
		return written{}, err
	}
	ch := change{action: "add_role", resource: "role:" + role, bytes: c.scope.Bytes([]string{role}, nil, nil, description),
		entries: entry(storage.FeedEntry{Op: "add_role", Role: role, Description: description})}
	return c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		return storage.AddRole(ctx, w.db, c.scope, role, description)
	})
}

// DelRole deletes a role with its memberships and permissions, in one
// transaction; re-creating the role brings none of them back.
func (c *Client) DelRole(ctx context.Context, role string) (deleted bool, err error) {
	return answered(c.delRole(ctx, role))
}

func (c *Client) delRole(ctx context.Context, role string) (written, error) {
	role = middleware.NormalizeName(role)
	if err := checkNames("role", role); err != nil {
		return written{}, err
	}
	// The audit record says what went with the role (storage.RoleRemoved);
	// the feed names each membership, before the del_role.
	var detail string
	var members storage.RemovedMembers
	ch := change{action: "del_role", resource: "role:" + role, role: role, roleDeleted: true, detail: &detail,
		entries: func() []storage.FeedEntry {
			return []storage.FeedEntry{{Op: "del_role", Role: role, Removed: members}}
		}}
	return c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		deleted, removed, m, err := storage.DeleteRoleFeed(ctx, w.db, c.scope, role)
		members = m // this attempt's (a write may run again)
		if deleted {
			detail = removed.JSON()
		}
		return deleted, err
	})
}

// AddPermission grants a permission to a role; ErrRoleNotFound when the
// role does not exist. With options (ExpiresAt, StartsAt) the grant holds
// in that window only; a grant that exists takes the bounds given (none
// without options) and reports created=false.
func (c *Client) AddPermission(ctx context.Context, role, name string, opts ...AddOption) (created bool, err error) {
	return answered(c.addPermission(ctx, role, name, opts))
}

func (c *Client) addPermission(ctx context.Context, role, name string, opts []AddOption) (written, error) {
	role, name = middleware.NormalizeName(role), middleware.NormalizeName(name)
	if err := checkNames("role", role, "permission", name); err != nil {
		return written{}, err
	}
	if err := c.checkGrantable(name); err != nil {
		return written{}, err
	}
	b, err := c.bounds(opts)
	if err != nil {
		c.az.auditRefusal(ctx, c.fingerprint, "add_permission", c.grantResource(role, name), err)
		return written{}, err
	}
	var created bool
	ch := change{action: "add_permission", resource: c.grantResource(role, name) + boundsNote(b), role: role, created: &created,
		bytes:   c.scope.Bytes([]string{role}, nil, []string{name}, ""),
		entries: entry(storage.FeedEntry{Op: "add_permission", Role: role, Permission: name, Bounds: b})}
	w, err := c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		p, err := storage.PutPermission(ctx, w.db, c.scope, role, name, b)
		created = p.Created
		return p.Changed, err
	})
	w.existed = w.changed && !created
	return w, err
}

// DelPermission revokes a permission from a role.
func (c *Client) DelPermission(ctx context.Context, role, name string) (deleted bool, err error) {
	return answered(c.delPermission(ctx, role, name))
}

func (c *Client) delPermission(ctx context.Context, role, name string) (written, error) {
	role, name = middleware.NormalizeName(role), middleware.NormalizeName(name)
	if err := checkNames("role", role, "permission", name); err != nil {
		return written{}, err
	}
	ch := change{action: "del_permission", resource: c.grantResource(role, name), role: role,
		entries: entry(storage.FeedEntry{Op: "del_permission", Role: role, Permission: name})}
	return c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		return storage.DeletePermission(ctx, w.db, c.scope, role, name)
	})
}

// AddMembership makes a user a member of a role; ErrRoleNotFound when the
// role does not exist. With options (ExpiresAt, StartsAt) the membership
// holds in that window only; one that exists takes the bounds given (none
// without options) and reports created=false.
func (c *Client) AddMembership(ctx context.Context, user, role string, opts ...AddOption) (created bool, err error) {
	return answered(c.addMembership(ctx, user, role, opts))
}

func (c *Client) addMembership(ctx context.Context, user, role string, opts []AddOption) (written, error) {
	role, user = middleware.NormalizeName(role), middleware.NormalizeName(user)
	if err := checkNames("user", user, "role", role); err != nil {
		return written{}, err
	}
	return c.putMembership(ctx, "", user, role, c.memberResource(user, role), opts)
}

// putMembership is AddMembership and AddMembershipIn past their checks of
// names.
func (c *Client) putMembership(ctx context.Context, scope, user, role, resource string, opts []AddOption) (written, error) {
	b, err := c.bounds(opts)
	if err != nil {
		c.az.auditRefusal(ctx, c.fingerprint, "add_membership", resource, err)
		return written{}, err
	}
	roles := []string{role}
	if scope != "" {
		roles = []string{scope, role}
	}
	var created bool
	ch := change{action: "add_membership", resource: resource + boundsNote(b), user: user, created: &created,
		bytes:   c.scope.Bytes(roles, []string{user}, nil, ""),
		entries: entry(storage.FeedEntry{Op: "add_membership", User: user, Role: role, Scope: scope, Bounds: b})}
	w, err := c.write(ctx, ch,
		func(ctx context.Context, w writer) (bool, error) {
			p, err := storage.PutMembership(ctx, w.db, c.scope, scope, user, role, b)
			created = p.Created
			return p.Changed, err
		})
	w.existed = w.changed && !created
	return w, err
}

// DelMembership removes a user from a role.
func (c *Client) DelMembership(ctx context.Context, user, role string) (deleted bool, err error) {
	return answered(c.delMembership(ctx, user, role))
}

func (c *Client) delMembership(ctx context.Context, user, role string) (written, error) {
	role, user = middleware.NormalizeName(role), middleware.NormalizeName(user)
	if err := checkNames("user", user, "role", role); err != nil {
		return written{}, err
	}
	ch := change{action: "del_membership", resource: c.memberResource(user, role), user: user,
		entries: entry(storage.FeedEntry{Op: "del_membership", User: user, Role: role})}
	return c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		return storage.DeleteMembership(ctx, w.db, c.scope, "", user, role)
	})
}

// HasMembership reports whether the user is a member of the role.
func (c *Client) HasMembership(ctx context.Context, user, role string) (bool, error) {
	role, user = middleware.NormalizeName(role), middleware.NormalizeName(user)
	if err := checkNames("user", user, "role", role); err != nil {
		return false, err
	}
	return readValue(ctx, c, func(ctx context.Context, db bun.IDB) (bool, error) {
		return storage.HasMembership(ctx, db, c.scope, "", user, role)
	})
}

// HasPermission reports whether the role holds the permission.
func (c *Client) HasPermission(ctx context.Context, role, name string) (bool, error) {
	role, name = middleware.NormalizeName(role), middleware.NormalizeName(name)
	if err := checkNames("role", role, "permission", name); err != nil {
		return false, err
	}
	return readValue(ctx, c, func(ctx context.Context, db bun.IDB) (bool, error) {
		return storage.HasPermission(ctx, db, c.scope, role, name, false)
	})
}

// GetUserPermissions lists the permissions the user holds through any role.
func (c *Client) GetUserPermissions(ctx context.Context, user string) ([]string, error) {
	user = middleware.NormalizeName(user)
	if err := checkNames("user", user); err != nil {
		return nil, err
	}
	return c.names(ctx, storage.PermissionsOfUser, user)
}

// GetUserRoles lists the roles the user is a member of.
func (c *Client) GetUserRoles(ctx context.Context, user string) ([]string, error) {
	user = middleware.NormalizeName(user)
	if err := checkNames("user", user); err != nil {
		return nil, err
	}
	return c.names(ctx, storage.RolesOfUser, user)
}

// GetRoleMembers lists a role's members; ErrRoleNotFound when it does not
// exist.
func (c *Client) GetRoleMembers(ctx context.Context, role string) ([]string, error) {
	role = middleware.NormalizeName(role)
	if err := checkNames("role", role); err != nil {
		return nil, err
	}
	return c.names(ctx, storage.MembersOfRole, role)
}

// GetPermissions lists a role's permissions; ErrRoleNotFound when it does
// not exist.
func (c *Client) GetPermissions(ctx context.Context, role string) ([]string, error) {
	role = middleware.NormalizeName(role)
	if err := checkNames("role", role); err != nil {
		return nil, err
	}
	return c.names(ctx, storage.PermissionsOfRole, role)
}

// WhichUsersCan lists the users holding the permission through any role.
func (c *Client) WhichUsersCan(ctx context.Context, name string) ([]string, error) {
	name = middleware.NormalizeName(name)
	if err := checkNames("permission", name); err != nil {
		return nil, err
	}
	return c.names(ctx, storage.UsersWithPermission, name)
}

// WhichRolesCan lists the roles holding the permission.
func (c *Client) WhichRolesCan(ctx context.Context, name string) ([]string, error) {
	name = middleware.NormalizeName(name)
	if err := checkNames("permission", name); err != nil {
		return nil, err
	}
	return c.names(ctx, storage.RolesWithPermission, name)
}

// Roles lists every role of the client with its description.
func (c *Client) Roles(ctx context.Context) ([]Role, error) {
	rows, err := readValue(ctx, c, func(ctx context.Context, db bun.IDB) ([]storage.Role, error) {
		return storage.ListRoles(ctx, db, c.scope)
	})
	if err != nil {
		return nil, err
	}
	out := make([]Role, len(rows))
	for i, r := range rows {
		out[i] = Role{Role: r.Name, Description: r.Description}
	}
	return out, nil
}

// grantResource names a grant in the audit log; with encryption on, the
// permission appears in its stored (encrypted) form, never in plain.
func (c *Client) grantResource(role, name string) string {
	return "permission:" + role + "/" + c.scope.AuditPermission(name)
}

func (c *Client) memberResource(user, role string) string {
	return "membership:" + c.scope.AuditUser(user) + "/" + role
}

func checkDescription(d string) error {
	if !utf8.ValidString(d) || utf8.RuneCountInString(d) > MaxDescriptionLength {
		return fmt.Errorf("%w: description must be valid UTF-8 of at most %d characters", ErrInvalidName, MaxDescriptionLength)
	}
	for _, r := range d {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return fmt.Errorf("%w: description must not hold control characters", ErrInvalidName)
		}
	}
	if cipher.IsEncrypted(d) {
		// It would read as an encrypted value, and fail to decrypt.
		return fmt.Errorf("%w: description must not start with %s or /e<number>/ (the marks of encrypted values)", ErrInvalidName, cipher.Prefix)
	}
	return nil
}

// MaxNameLength is the longest name, in Unicode characters.
const MaxNameLength = middleware.MaxNameLength

// ValidName reports whether s is a valid role, permission or user name: 1
// to 128 characters of valid UTF-8, no control characters, no format
// characters (Unicode category Cf, such as zero-width space), no '/', no
// leading or trailing white space. Names are case-sensitive, and every
// entry point normalises them to NFC first (middleware.NormalizeName), so
// a composed and a decomposed "é" are one name.
func ValidName(s string) bool { return middleware.ValidName(s) }

// checkNames returns ErrInvalidName, naming the field, for the first bad
// name of kind/value pairs.
func checkNames(kv ...string) error { return rbac.CheckNames(kv...) }

// SetRoleDescription changes a role's description (AddRole leaves an
// existing role's alone); ErrRoleNotFound when the role does not exist.
// changed is false when the description read so already. The change is
// audited as set_description, in its own transaction, like every write.
func (c *Client) SetRoleDescription(ctx context.Context, role, description string) (changed bool, err error) {
	return answered(c.setRoleDescription(ctx, role, description))
}

func (c *Client) setRoleDescription(ctx context.Context, role, description string) (written, error) {
	role = middleware.NormalizeName(role)
	if err := checkNames("role", role); err != nil {
		return written{}, err
	}
	if err := checkDescription(description); err != nil {
		return written{}, err
	}
	// The new description may be longer: its bytes count like an add's.
	ch := change{action: "set_description", resource: "role:" + role, bytes: c.scope.Bytes(nil, nil, nil, description),
		entries: entry(storage.FeedEntry{Op: "set_description", Role: role, Description: description})}
	return c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		return storage.SetRoleDescription(ctx, w.db, c.scope, role, description)
	})
}

// Role inheritance: a role holds its own permissions and, transitively,
// those of every role it inherits from. Every answer about what a user can
// do counts inherited permissions; a role's own views (HasPermission,
// GetPermissions) stay direct, beside their Effective variants.

// AddInheritance makes role inherit every permission of parent.
// ErrRoleNotFound when either does not exist; ErrCycle, with nothing
// stored, when parent already inherits from role (or is role);
// ErrShapeLimit, with nothing stored, when role or a role inheriting from
// it would pass Config.MaxInheritanceDepth or Config.MaxRoleAncestors.
func (c *Client) AddInheritance(ctx context.Context, role, parent string) (created bool, err error) {
	return answered(c.addInheritance(ctx, role, parent))
}

func (c *Client) addInheritance(ctx context.Context, role, parent string) (written, error) {
	if err := checkNames("role", role, "parent", parent); err != nil {
		return written{}, err
	}
	// role: its effective set changes, and with it those of the roles
	// inheriting from it (the cache drops every set built from role), as
	// with a grant to role. The change log names role, so other replicas
	// drop the same sets.
	ch := change{action: "add_inheritance", resource: inheritResource(role, parent), role: role, bytes: c.scope.Bytes([]string{role, parent}, nil, nil, ""),
		entries: entry(storage.FeedEntry{Op: "add_inheritance", Role: role, Parent: parent})}
	return c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		return storage.AddInheritance(ctx, w.db, c.scope, role, parent)
	})
}

// DelInheritance removes role's inheritance from parent.
func (c *Client) DelInheritance(ctx context.Context, role, parent string) (deleted bool, err error) {
	return answered(c.delInheritance(ctx, role, parent))
}

func (c *Client) delInheritance(ctx context.Context, role, parent string) (written, error) {
	if err := checkNames("role", role, "parent", parent); err != nil {
		return written{}, err
	}
	ch := change{action: "del_inheritance", resource: inheritResource(role, parent), role: role,
		entries: entry(storage.FeedEntry{Op: "del_inheritance", Role: role, Parent: parent})}
	return c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		return storage.DeleteInheritance(ctx, w.db, c.scope, role, parent)
	})
}

// GetParents lists the roles role inherits from directly;
// ErrRoleNotFound when it does not exist.
func (c *Client) GetParents(ctx context.Context, role string) ([]string, error) {
	if err := checkNames("role", role); err != nil {
		return nil, err
	}
	return c.names(ctx, storage.ParentsOfRole, role)
}

// GetEffectivePermissions lists the permissions role holds, its own and
// inherited; ErrRoleNotFound when it does not exist.
func (c *Client) GetEffectivePermissions(ctx context.Context, role string) ([]string, error) {
	if err := checkNames("role", role); err != nil {
		return nil, err
	}
	return c.names(ctx, storage.EffectivePermissionsOfRole, role)
}

// HasEffectivePermission reports whether role holds the permission, its
// own or inherited.
func (c *Client) HasEffectivePermission(ctx context.Context, role, name string) (bool, error) {
	if err := checkNames("role", role, "permission", name); err != nil {
		return false, err
	}
	return readValue(ctx, c, func(ctx context.Context, db bun.IDB) (bool, error) {
		return storage.HasPermission(ctx, db, c.scope, role, name, true)
	})
}

func inheritResource(role, parent string) string { return "inheritance:" + role + "/" + parent }
