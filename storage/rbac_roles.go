package storage

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"
)

// Role is a role and its description, in plain form.
type Role struct {
	Name        string
	Description string
}

// AddRole creates a role; created is false when it already existed (its
// description is then left as it was).
func AddRole(ctx context.Context, db bun.IDB, s Scope, role, description string) (created bool, err error) {
	res, err := db.NewRaw(
		"INSERT INTO rolegate_roles (ns, name, description, created_at) VALUES (?, ?, ?, CURRENT_TIMESTAMP) ON CONFLICT (ns, name) DO NOTHING",
		s.NS, role, s.storedDescription(description)).Exec(ctx)
	return affected(res, err)
}

// DeleteRole deletes a role with its grants and memberships.
func DeleteRole(ctx context.Context, db bun.IDB, s Scope, role string) (deleted bool, err error) {
	// The foreign keys cascade too; deleting explicitly keeps the result the
	// same where a host's SQLite connection has foreign keys off.
	if err := forgetRoleAncestors(ctx, db, s, role); err != nil {
		return false, err
	}
	for _, q := range []string{
		"DELETE FROM rolegate_permissions WHERE ns = ? AND role = ?",
		"DELETE FROM rolegate_memberships WHERE ns = ? AND role = ?",
	} {
		if _, err := db.NewRaw(q, s.NS, role).Exec(ctx); err != nil {
			return false, Classify(err)
		}
	}
	res, err := db.NewRaw("DELETE FROM rolegate_roles WHERE ns = ? AND name = ?", s.NS, role).Exec(ctx)
	return affected(res, err)
}

// roleExists reports whether the role exists.
func roleExists(ctx context.Context, db bun.IDB, s Scope, role string) (bool, error) {
	var n int
	err := db.NewRaw("SELECT 1 FROM rolegate_roles WHERE ns = ? AND name = ?", s.NS, role).Scan(ctx, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, Classify(err)
}

// GetRole returns one role; ErrRoleNotFound when absent.
func GetRole(ctx context.Context, db bun.IDB, s Scope, role string) (Role, error) {
	var d string
	err := db.NewRaw("SELECT description FROM rolegate_roles WHERE ns = ? AND name = ?", s.NS, role).Scan(ctx, &d)
	if errors.Is(err, sql.ErrNoRows) {
		return Role{}, ErrRoleNotFound
	}
	if err != nil {
		return Role{}, Classify(err)
	}
	d, err = s.plainDescription(d)
	return Role{Name: role, Description: d}, err
}

// ListRoles returns every role of the namespace, sorted by name.
func ListRoles(ctx context.Context, db bun.IDB, s Scope) ([]Role, error) {
	var rows []struct {
		Name        string `bun:"name"`
		Description string `bun:"description"`
	}
	if err := db.NewRaw("SELECT name, description FROM rolegate_roles WHERE ns = ? ORDER BY name", s.NS).Scan(ctx, &rows); err != nil {
		return nil, Classify(err)
	}
	out := make([]Role, 0, len(rows))
	for _, r := range rows {
		d, err := s.plainDescription(r.Description)
		if err != nil {
			return nil, err
		}
		out = append(out, Role{Name: r.Name, Description: d})
	}
	// ORDER BY uses the database's collation; sort by Go's byte order so
	// both databases list alike.
	sortRoles(out)
	return out, nil
}

// requireRole fails with ErrRoleNotFound when the role is absent.
func requireRole(ctx context.Context, db bun.IDB, s Scope, role string) error {
	ok, err := roleExists(ctx, db, s, role)
	if err != nil {
		return err
	}
	if !ok {
		return ErrRoleNotFound
	}
	return nil
}

// roleGuard holds when the role (arguments: namespace, role) exists; an
// insert that needs the role selects its values WHERE roleGuard.
const roleGuard = "EXISTS (SELECT 1 FROM rolegate_roles WHERE ns = ? AND name = ?)"

func affected(res sql.Result, err error) (bool, error) {
	if err != nil {
		if isForeignKeyViolation(err) {
			return false, ErrRoleNotFound
		}
		return false, Classify(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, Classify(err)
	}
	return n > 0, nil
}
