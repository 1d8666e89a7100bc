package authz

import (
	"context"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// ExplainPermission returns how the user holds the permission through a
// global membership, or nil when it does not. Of several paths it gives a
// shortest one, preferring a global membership, then names in order.
func (c *Client) ExplainPermission(ctx context.Context, user, permission string) (*Grant, error) {
	if err := checkNames("user", user, "permission", permission); err != nil {
		return nil, err
	}
	return c.explain(ctx, "", user, permission)
}

// ExplainPermissionIn is ExplainPermission in scope: through a global
// membership or one in scope.
func (c *Client) ExplainPermissionIn(ctx context.Context, scope, user, permission string) (*Grant, error) {
	if err := checkNames("scope", scope, "user", user, "permission", permission); err != nil {
		return nil, err
	}
	return c.explain(ctx, scope, user, permission)
}

// explain searches breadth first from the user's memberships upwards along
// inheritance, to the first role granted the permission.
func (c *Client) explain(ctx context.Context, scope, user, permission string) (*Grant, error) {
	return readValue(ctx, c, func(ctx context.Context, db bun.IDB) (*Grant, error) {
		return c.explainOn(ctx, db, scope, user, permission)
	})
}

func (c *Client) explainOn(ctx context.Context, db bun.IDB, scope, user, permission string) (*Grant, error) {
	members, err := storage.Members(ctx, db, c.scope, storage.RolesOfUser, scope, user)
	if err != nil || len(members) == 0 {
		return nil, err
	}
	// Global memberships first, then scoped; by name within each.
	slices.SortStableFunc(members, func(a, b storage.Member) int {
		if (a.Scope == "") != (b.Scope == "") {
			if a.Scope == "" {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	roles := make([]string, len(members))
	for i, m := range members {
		roles[i] = m.Name
	}
	chain, from, err := c.grantPath(ctx, db, roles, permission)
	if err != nil || chain == nil {
		return nil, err
	}
	m := members[from]
	g := &Grant{Membership: m.Name, Scope: m.Scope, Chain: chain, GrantedBy: chain[len(chain)-1]}
	mb, _, err := storage.MembershipBounds(ctx, db, c.scope, m.Scope, user, m.Name)
	if err != nil {
		return nil, err
	}
	gb, _, err := storage.PermissionBounds(ctx, db, c.scope, g.GrantedBy, permission)
	if err != nil {
		return nil, err
	}
	if !mb.IsZero() {
		b := publicBounds(mb)
		g.MembershipBounds = &b
	}
	if !gb.IsZero() {
		b := publicBounds(gb)
		g.GrantBounds = &b
	}
	return g, nil
}

// ExplainRolePermission returns how a role holds a permission, granted or
// inherited: the roles from role to the one granted the permission, each
// inheriting from the next (one role when it is granted directly); nil when
// the role does not hold it. Of several paths it gives a shortest one,
// parents in name order.
func (c *Client) ExplainRolePermission(ctx context.Context, role, permission string) ([]string, error) {
	if err := checkNames("role", role, "permission", permission); err != nil {
		return nil, err
	}
	return readValue(ctx, c, func(ctx context.Context, db bun.IDB) ([]string, error) {
		chain, _, err := c.grantPath(ctx, db, []string{role}, permission)
		return chain, err
	})
}

// grantPath searches breadth first from the starting roles upwards along
// inheritance, to the first role granted the permission. It returns the
// chain from a starting role to that role, and which starting role it
// begins with; a nil chain when none holds the permission.
func (c *Client) grantPath(ctx context.Context, db bun.IDB, starts []string, permission string) ([]string, int, error) {
	granting, err := storage.Names(ctx, db, c.scope, storage.RolesGrantedPermission, permission)
	if err != nil || len(granting) == 0 {
		return nil, 0, err
	}
	edges, err := storage.EdgesFrom(ctx, db, c.scope, starts)
	if err != nil {
		return nil, 0, err
	}
	parents := map[string][]string{}
	for _, e := range edges {
		parents[e.Role] = append(parents[e.Role], e.Parent)
	}
	for _, p := range parents {
		slices.Sort(p)
	}
	grants := toSet(granting)
	type node struct {
		role string
		from int // index into visited of the child it was reached from; -1 for a starting role
		via  int // index into starts
	}
	var visited []node
	seen := map[string]bool{}
	for i, r := range starts {
		if !seen[r] {
			seen[r] = true
			visited = append(visited, node{role: r, from: -1, via: i})
		}
	}
	for i := 0; i < len(visited); i++ {
		n := visited[i]
		if _, ok := grants[n.role]; ok {
			var chain []string
			for j := i; j >= 0; j = visited[j].from {
				chain = append(chain, visited[j].role)
			}
			slices.Reverse(chain)
			return chain, n.via, nil
		}
		for _, p := range parents[n.role] {
			if !seen[p] {
				seen[p] = true
				visited = append(visited, node{role: p, from: i, via: n.via})
			}
		}
	}
	return nil, 0, nil
}

func toSet(v []string) map[string]struct{} {
	m := make(map[string]struct{}, len(v))
	for _, s := range v {
		m[s] = struct{}{}
	}
	return m
}
