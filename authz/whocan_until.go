package authz

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/storage"
)

// Who-can with its ends: the users holding a permission now, as
// WhichUsersCan lists them, each with until when she holds it as the rows
// stand (the REST API's which_users_can and the console read these).

// UserUntil is an entry of WhichUsersCanUntil and EachWhichUserCanUntil:
// the user, and Until, when her holding ends (nil: no end).
type UserUntil = rbac.UserUntil

// WhichUsersCanUntil is WhichUsersCan with each user's end: until when
// she holds the permission through her global memberships held now (the
// latest end of her paths, each ending at the first expires_at of its
// membership and its grant; nil when a path has no end).
func (c *Client) WhichUsersCanUntil(ctx context.Context, name string) ([]UserUntil, error) {
	out := []UserUntil{}
	err := c.EachWhichUserCanUntil(ctx, name, ListWindow{}, func(page []UserUntil) error {
		out = append(out, page...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// EachWhichUserCanUntil reads the users holding the permission through
// global memberships, as EachWhichUserCan, each with her end as
// WhichUsersCanUntil gives it: one more query per window.
func (c *Client) EachWhichUserCanUntil(ctx context.Context, name string, w ListWindow, fn func([]UserUntil) error) error {
	return c.eachName("permission", name, func(name string) error {
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]UserUntil) error) error {
			return storage.Each(ctx, db, c.scope, storage.UsersWithPermission, "", name, c.window(w), func(users []string) error {
				until, err := storage.WhoCanUntil(ctx, db, c.scope, name, users)
				if err != nil {
					return err
				}
				page := make([]UserUntil, len(users))
				for i, u := range users {
					page[i].User = u
					if t, ok := until[u]; ok {
						t := t.UTC()
						page[i].Until = &t
					}
				}
				return fn(page)
			})
		})
	})
}
