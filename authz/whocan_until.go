package authz

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/storage"
)

// Who-can with its ends: the users holding a permission now, as
// WhichUsersCan and WhichUsersCanIn list them, each with until when she
// holds it as the rows stand (the REST API's which_users_can and the
// console read these).

// UserUntil is an entry of WhichUsersCanUntil, EachWhichUserCanUntil and
// EachWhichUserCanInUntil: the user, the scope as in ScopedUser, and
// Until, when her holding ends (nil: no end).
type UserUntil = rbac.UserUntil

// WhichUsersCanUntil is WhichUsersCan with each user's end: until when
// she holds the permission through her global memberships held now (the
// latest end of her paths, each ending at the first expires_at of its
// membership and its grant, inherited grants included; nil when a path
// has no end).
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
				page := make([]UserUntil, len(users))
				for i, u := range users {
					page[i].User = u
				}
				return c.untilOf(ctx, db, "", name, users, page, fn)
			})
		})
	})
}

// EachWhichUserCanInUntil is EachWhichUserCanIn with each user's end in
// scope: her paths through her global memberships and those in scope.
func (c *Client) EachWhichUserCanInUntil(ctx context.Context, scope, name string, w ListWindow, fn func([]UserUntil) error) error {
	return c.eachScoped(scope, "permission", name, func(scope, name string) error {
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]UserUntil) error) error {
			return storage.EachMember(ctx, db, c.scope, storage.UsersWithPermission, scope, name, c.window(w), func(m []storage.Member) error {
				users, page := make([]string, len(m)), make([]UserUntil, len(m))
				for i, e := range m {
					users[i], page[i] = e.Name, UserUntil{User: e.Name, Scope: e.Scope}
				}
				return c.untilOf(ctx, db, scope, name, users, page, fn)
			})
		})
	})
}

// untilOf sets the Until of each entry of page (whose users are users)
// and hands the page to fn.
func (c *Client) untilOf(ctx context.Context, db bun.IDB, scope, name string, users []string, page []UserUntil,
	fn func([]UserUntil) error) error {
	until, err := storage.WhoCanUntil(ctx, db, c.scope, scope, name, users)
	if err != nil {
		return err
	}
	for i := range page {
		if t, ok := until[page[i].User]; ok {
			t = t.UTC()
			page[i].Until = &t
		}
	}
	return fn(page)
}
