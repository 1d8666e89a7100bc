package storage

import (
	"context"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261123000100", "role inheritance and scoped memberships", modelUp, modelDown)
}

// Role inheritance and scoped memberships live in tables of their own, so
// that the seed's tables, and every query of a client that uses neither,
// stay exactly as they were.
//
// rolegate_role_parents: role inherits every permission of parent. Role
// names are stored as they are (as in rolegate_roles); both ends cascade,
// so deleting a role removes its links in both directions.
//
// rolegate_scoped_memberships: a membership that holds in one scope only.
// The user name is stored like the user names of rolegate_memberships
// (encrypted when names are); the scope is a name like a role's and is
// stored as it is.
var modelSchema = []string{
	`CREATE TABLE IF NOT EXISTS rolegate_role_parents (
		ns TEXT NOT NULL,
		role TEXT NOT NULL,
		parent TEXT NOT NULL,
		PRIMARY KEY (ns, role, parent),
		FOREIGN KEY (ns, role) REFERENCES rolegate_roles (ns, name) ON DELETE CASCADE,
		FOREIGN KEY (ns, parent) REFERENCES rolegate_roles (ns, name) ON DELETE CASCADE
	)`,
	`CREATE INDEX IF NOT EXISTS rolegate_role_parents_by_parent ON rolegate_role_parents (ns, parent)`,
	`CREATE TABLE IF NOT EXISTS rolegate_scoped_memberships (
		ns TEXT NOT NULL,
		scope TEXT NOT NULL,
		user_name TEXT NOT NULL,
		role TEXT NOT NULL,
		PRIMARY KEY (ns, user_name, scope, role),
		FOREIGN KEY (ns, role) REFERENCES rolegate_roles (ns, name) ON DELETE CASCADE
	)`,
	`CREATE INDEX IF NOT EXISTS rolegate_scoped_memberships_by_role ON rolegate_scoped_memberships (ns, role, scope)`,
}

func modelUp(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, s := range modelSchema {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return err
			}
		}
		return nil
	})
}

func modelDown(ctx context.Context, db *bun.DB) error {
	for _, t := range []string{"rolegate_scoped_memberships", "rolegate_role_parents"} {
		if _, err := db.ExecContext(ctx, "DROP TABLE IF EXISTS "+t); err != nil {
			return err
		}
	}
	return nil
}
