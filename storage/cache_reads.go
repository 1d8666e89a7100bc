package storage

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/uptrace/bun"
)

// RoleEffective returns what the decision cache keeps per role with
// inheritance: the role's effective permissions (its own grants and those
// of every role it inherits from, plain names) and the roles they were
// built from (sources: the role and all its ancestors), read in one
// statement so both describe one state of the store. A role that does not
// exist has no permissions and is its only source.
func RoleEffective(ctx context.Context, db bun.IDB, s Scope, role string) (perms, sources []string, err error) {
	var rows []struct {
		Role string         `bun:"role"`
		Name sql.NullString `bun:"name"`
	}
	err = db.NewRaw(`WITH `+fmt.Sprintf(ancestorsCTE, "SELECT CAST(? AS TEXT)")+`
		SELECT role, CAST(NULL AS TEXT) AS name FROM r
		UNION ALL SELECT role, name FROM rolegate_permissions WHERE ns = ? AND role IN (SELECT role FROM r)`,
		role, s.NS, s.NS).Scan(ctx, &rows)
	if err != nil {
		return nil, nil, Classify(err)
	}
	sources = []string{role}
	var stored []string
	for _, r := range rows {
		if r.Name.Valid {
			stored = append(stored, r.Name.String)
		} else {
			sources = append(sources, r.Role)
		}
	}
	if perms, err = plainAll(s.Permissions, stored); err != nil {
		return nil, nil, err
	}
	return sortedUnique(perms), sortedUnique(sources), nil
}

// UserRoleSets returns the roles the user holds globally and, per scope,
// those held through a membership in that scope only: what the decision
// cache keeps per user. Only scopes the user has memberships in appear, so
// checks in other scopes (a scope name from a URL) add nothing.
func UserRoleSets(ctx context.Context, db bun.IDB, s Scope, user string) (global []string, byScope map[string][]string, err error) {
	var rows []memberRow
	forms := bun.List(s.userForms(user))
	err = db.NewRaw(`SELECT role AS name, '' AS scope FROM rolegate_memberships WHERE ns = ? AND user_name IN (?)
		UNION ALL SELECT role, scope FROM rolegate_scoped_memberships WHERE ns = ? AND user_name IN (?)`,
		s.NS, forms, s.NS, forms).Scan(ctx, &rows)
	if err != nil {
		return nil, nil, Classify(err)
	}
	for _, r := range rows {
		if r.Scope == "" {
			global = append(global, r.Name)
			continue
		}
		if byScope == nil {
			byScope = map[string][]string{}
		}
		byScope[r.Scope] = append(byScope[r.Scope], r.Name)
	}
	for k, v := range byScope {
		byScope[k] = sortedUnique(v)
	}
	return sortedUnique(global), byScope, nil
}
