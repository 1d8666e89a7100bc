package storage

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"
)

// RoleCounts is how much hangs on one role: what deleting it removes.
type RoleCounts struct {
	Permissions   int `bun:"permissions" json:"permissions"`
	Members       int `bun:"members" json:"members"`
	ScopedMembers int `bun:"scoped_members" json:"scoped_members"`
	Parents       int `bun:"parents" json:"parents"`
	Children      int `bun:"children" json:"children"`
}

// RoleDetail counts the role's direct grants, global and scoped
// memberships, and inheritance links either way, in one statement over
// the (ns, role) and (ns, parent) indexes, and with describe reads its
// description too (without, the description is neither read nor
// decrypted, so a damaged one fails nothing); ErrRoleNotFound when the
// role does not exist.
func RoleDetail(ctx context.Context, db bun.IDB, s Scope, role string, describe bool) (Role, RoleCounts, error) {
	var row struct {
		Description string `bun:"description"`
		RoleCounts
	}
	description := "''"
	if describe {
		description = "r.description"
	}
	err := db.NewRaw(`SELECT `+description+` AS description,
		(SELECT COUNT(*) FROM rolegate_permissions WHERE ns = r.ns AND role = r.name) AS permissions,
		(SELECT COUNT(*) FROM rolegate_memberships WHERE ns = r.ns AND role = r.name) AS members,
		(SELECT COUNT(*) FROM rolegate_scoped_memberships WHERE ns = r.ns AND role = r.name) AS scoped_members,
		(SELECT COUNT(*) FROM rolegate_role_parents WHERE ns = r.ns AND role = r.name) AS parents,
		(SELECT COUNT(*) FROM rolegate_role_parents WHERE ns = r.ns AND parent = r.name) AS children
		FROM rolegate_roles r WHERE r.ns = ? AND r.name = ?`, s.NS, role).Scan(ctx, &row)
	if errors.Is(err, sql.ErrNoRows) {
		return Role{}, RoleCounts{}, ErrRoleNotFound
	}
	if err != nil {
		return Role{}, RoleCounts{}, Classify(err)
	}
	d, err := s.plainDescription(row.Description)
	if err != nil {
		return Role{}, RoleCounts{}, err
	}
	return Role{Name: role, Description: d}, row.RoleCounts, nil
}
