package authz

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// The direct lists with their bounds: every stored row, held now or not
// (a membership that starts on Monday, one expired and not yet removed),
// each with its bounds and whether it counts now. The REST lists, the
// console, exports and backups read these; the plain Each and Get lists
// count only the rows held now.

type (
	// Listed is an entry of the direct lists read with bounds
	// (EachRoleMemberBounded, EachRolePermissionBounded,
	// EachUserRoleBounded): Name, the row's Bounds, and Held, whether it
	// counts now.
	Listed = rbac.Listed
	// ScopedListed is an entry of EachScopedMembershipBounded.
	ScopedListed = rbac.ScopedListed
)

// EachRoleMemberBounded reads role's global members, every stored row
// with its bounds; ErrRoleNotFound when the role does not exist.
func (c *Client) EachRoleMemberBounded(ctx context.Context, role string, w ListWindow, fn func([]Listed) error) error {
	return c.eachBounded(ctx, storage.MembersOfRole, "role", role, w, fn)
}

// EachRolePermissionBounded reads role's own permissions, every stored
// grant with its bounds; ErrRoleNotFound when the role does not exist.
func (c *Client) EachRolePermissionBounded(ctx context.Context, role string, w ListWindow, fn func([]Listed) error) error {
	return c.eachBounded(ctx, storage.PermissionsOfRole, "role", role, w, fn)
}

// EachUserRoleBounded reads the roles user is a global member of, every
// stored membership with its bounds.
func (c *Client) EachUserRoleBounded(ctx context.Context, user string, w ListWindow, fn func([]Listed) error) error {
	return c.eachBounded(ctx, storage.RolesOfUser, "user", user, w, fn)
}

func (c *Client) eachBounded(ctx context.Context, l storage.List, kind, of string, w ListWindow, fn func([]Listed) error) error {
	return c.eachName(kind, of, func(of string) error {
		win := c.window(w)
		win.All = true
		return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]Listed) error) error {
			return storage.Each(ctx, db, c.scope, l, "", of, win, func(names []string) error {
				bs, err := storage.PageBounds(ctx, db, c.scope, l, of, names)
				if err != nil {
					return err
				}
				now := c.az.cfg.clock.Now()
				page := make([]Listed, len(names))
				for i, n := range names {
					b := bs[n]
					page[i] = Listed{Name: n, Bounds: publicBounds(b), Held: b.HeldAt(now)}
				}
				return fn(page)
			})
		})
	})
}

// EachScopedMembershipBounded is EachScopedMembership with each row's
// bounds and whether it counts now.
func (c *Client) EachScopedMembershipBounded(ctx context.Context, w ScopedWindow, fn func([]ScopedListed) error) error {
	norm := func(m ScopedMembership) storage.ScopedMembership {
		return storage.ScopedMembership{Scope: middleware.NormalizeName(m.Scope), User: middleware.NormalizeName(m.User),
			Role: middleware.NormalizeName(m.Role)}
	}
	win := storage.ScopedWindow{After: norm(w.After), Limit: w.Limit, Window: listWindow, Only: norm(w.Only)}
	return readPages(ctx, c, fn, func(ctx context.Context, db bun.IDB, fn func([]ScopedListed) error) error {
		return storage.EachScopedMembership(ctx, db, c.scope, win, func(rows []storage.ScopedMembership) error {
			bs, err := storage.ScopedPageBounds(ctx, db, c.scope, rows)
			if err != nil {
				return err
			}
			now := c.az.cfg.clock.Now()
			page := make([]ScopedListed, len(rows))
			for i, m := range rows {
				b := bs[m]
				page[i] = ScopedListed{ScopedMembership: ScopedMembership{User: m.User, Role: m.Role, Scope: m.Scope},
					Bounds: publicBounds(b), Held: b.HeldAt(now)}
			}
			return fn(page)
		})
	})
}

// MembershipBounds reads the bounds of user's membership of role
// (globally when scope is "", else in scope) as stored, held now or not:
// found is false when there is no such membership, held whether it counts
// now.
func (c *Client) MembershipBounds(ctx context.Context, scope, user, role string) (b Bounds, found, held bool, err error) {
	scope, user, role = middleware.NormalizeName(scope), middleware.NormalizeName(user), middleware.NormalizeName(role)
	kv := []string{"user", user, "role", role}
	if scope != "" {
		kv = append(kv, "scope", scope)
	}
	if err := checkNames(kv...); err != nil {
		return Bounds{}, false, false, err
	}
	return c.rowBounds(ctx, func(ctx context.Context, db bun.IDB) (storage.TimeBounds, bool, error) {
		return storage.MembershipBounds(ctx, db, c.scope, scope, user, role)
	})
}

// PermissionBounds reads the bounds of role's own grant of name as
// stored, as MembershipBounds does a membership's.
func (c *Client) PermissionBounds(ctx context.Context, role, name string) (b Bounds, found, held bool, err error) {
	role, name = middleware.NormalizeName(role), middleware.NormalizeName(name)
	if err := checkNames("role", role, "permission", name); err != nil {
		return Bounds{}, false, false, err
	}
	return c.rowBounds(ctx, func(ctx context.Context, db bun.IDB) (storage.TimeBounds, bool, error) {
		return storage.PermissionBounds(ctx, db, c.scope, role, name)
	})
}

func (c *Client) rowBounds(ctx context.Context, read func(context.Context, bun.IDB) (storage.TimeBounds, bool, error)) (Bounds, bool, bool, error) {
	type row struct {
		b     storage.TimeBounds
		found bool
	}
	r, err := readValue(ctx, c, func(ctx context.Context, db bun.IDB) (row, error) {
		b, found, err := read(ctx, db)
		return row{b, found}, err
	})
	if err != nil || !r.found {
		return Bounds{}, false, false, err
	}
	return publicBounds(r.b), true, r.b.HeldAt(c.az.cfg.clock.Now()), nil
}
