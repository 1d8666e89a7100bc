package authz

import (
	"context"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// SetRoleDescription changes a role's description (AddRole leaves an
// existing role's alone); ErrRoleNotFound when the role does not exist.
// changed is false when the description read so already. The change is
// audited as set_description, in its own transaction, like every write.
func (c *Client) SetRoleDescription(ctx context.Context, role, description string) (changed bool, err error) {
	role = middleware.NormalizeName(role)
	if err := checkNames("role", role); err != nil {
		return false, err
	}
	if err := checkDescription(description); err != nil {
		return false, err
	}
	return c.write(ctx, change{action: "set_description", resource: "role:" + role}, func(ctx context.Context, w writer) (bool, error) {
		return storage.SetRoleDescription(ctx, w.db, c.scope, role, description)
	})
}
