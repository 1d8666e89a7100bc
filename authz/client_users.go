package authz

import (
	"context"

	"github.com/rolegate/rolegate/storage"
)

// EachUser reads the users that hold at least one membership, global or
// scoped, sorted, window by window (GET /api/users).
func (c *Client) EachUser(ctx context.Context, w ListWindow, fn func([]string) error) error {
	return storage.Each(ctx, c.az.db, c.scope, storage.UsersWithMembership, "", "", c.window(w), fn)
}
