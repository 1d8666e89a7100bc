package authz

import (
	"context"

	"github.com/rolegate/rolegate/storage"
)

// Role inheritance: a role holds its own permissions and, transitively,
// those of every role it inherits from. Every answer about what a user can
// do counts inherited permissions; a role's own views (HasPermission,
// GetPermissions) stay direct, beside their Effective variants.

// AddInheritance makes role inherit every permission of parent.
// ErrRoleNotFound when either does not exist; ErrCycle, with nothing
// stored, when parent already inherits from role (or is role).
func (c *Client) AddInheritance(ctx context.Context, role, parent string) (created bool, err error) {
	if err := checkNames("role", role, "parent", parent); err != nil {
		return false, err
	}
	// role: its effective set changes, and with it those of the roles
	// inheriting from it (the cache drops every set built from role), as
	// with a grant to role. The change log names role, so other replicas
	// drop the same sets.
	return c.write(ctx, change{action: "add_inheritance", resource: inheritResource(role, parent), role: role}, func(ctx context.Context, w writer) (bool, error) {
		return storage.AddInheritance(ctx, w.db, c.scope, role, parent)
	})
}

// DelInheritance removes role's inheritance from parent.
func (c *Client) DelInheritance(ctx context.Context, role, parent string) (deleted bool, err error) {
	if err := checkNames("role", role, "parent", parent); err != nil {
		return false, err
	}
	return c.write(ctx, change{action: "del_inheritance", resource: inheritResource(role, parent), role: role}, func(ctx context.Context, w writer) (bool, error) {
		return storage.DeleteInheritance(ctx, w.db, c.scope, role, parent)
	})
}

// GetParents lists the roles role inherits from directly;
// ErrRoleNotFound when it does not exist.
func (c *Client) GetParents(ctx context.Context, role string) ([]string, error) {
	if err := checkNames("role", role); err != nil {
		return nil, err
	}
	return storage.Names(ctx, c.az.db, c.scope, storage.ParentsOfRole, role)
}

// GetEffectivePermissions lists the permissions role holds, its own and
// inherited; ErrRoleNotFound when it does not exist.
func (c *Client) GetEffectivePermissions(ctx context.Context, role string) ([]string, error) {
	if err := checkNames("role", role); err != nil {
		return nil, err
	}
	return storage.Names(ctx, c.az.db, c.scope, storage.EffectivePermissionsOfRole, role)
}

// HasEffectivePermission reports whether role holds the permission, its
// own or inherited.
func (c *Client) HasEffectivePermission(ctx context.Context, role, name string) (bool, error) {
	if err := checkNames("role", role, "permission", name); err != nil {
		return false, err
	}
	return storage.HasPermission(ctx, c.az.db, c.scope, role, name, true)
}

func inheritResource(role, parent string) string { return "inheritance:" + role + "/" + parent }
