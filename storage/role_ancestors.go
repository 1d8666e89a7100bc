package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261125210000", "role ancestors: the closure of inheritance", ancestorsUp, ancestorsDown)
}

// rolegate_role_ancestors is the transitive closure of rolegate_role_parents:
// one row per role and each role it inherits from, directly or not, with
// depth the length of the longest chain of inheritances between them (1 for
// a direct parent). A role is not its own ancestor. It is kept in the same
// transaction as every change of inheritance (linkAncestors, unlinkAncestors,
// forgetRoleAncestors), so that an effective set is one indexed read instead
// of a walk over the chain, and the shape limits (depth, ancestors) are
// checked with a few indexed reads at write time.
var ancestorsSchema = []string{
	`CREATE TABLE IF NOT EXISTS rolegate_role_ancestors (
		ns TEXT NOT NULL,
		role TEXT NOT NULL,
		ancestor TEXT NOT NULL,
		depth INTEGER NOT NULL,
		PRIMARY KEY (ns, role, ancestor),
		FOREIGN KEY (ns, role) REFERENCES rolegate_roles (ns, name) ON DELETE CASCADE,
		FOREIGN KEY (ns, ancestor) REFERENCES rolegate_roles (ns, name) ON DELETE CASCADE
	)`,
	`CREATE INDEX IF NOT EXISTS rolegate_role_ancestors_by_ancestor ON rolegate_role_ancestors (ns, ancestor, role)`,
}

// ancestorsUp creates the closure and fills it from the stored
// inheritances, one level of depth per statement (the longest chains last),
// so that a store of any shape migrates with a bounded number of
// statements per level.
func ancestorsUp(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, q := range ancestorsSchema {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rolegate_role_ancestors (ns, role, ancestor, depth)
			SELECT ns, role, parent, 1 FROM rolegate_role_parents WHERE true
			ON CONFLICT (ns, role, ancestor) DO NOTHING`); err != nil {
			return err
		}
		var roles int64
		if err := tx.NewRaw("SELECT COUNT(*) FROM rolegate_roles").Scan(ctx, &roles); err != nil {
			return err
		}
		// Each pass extends the chains found longest in the last one by one
		// parent. A chain is never longer than the roles there are, which
		// ends the loop even on a cycle a store was somehow left with.
		for depth := int64(1); depth <= roles; depth++ {
			res, err := tx.ExecContext(ctx, `INSERT INTO rolegate_role_ancestors (ns, role, ancestor, depth)
				SELECT a.ns, a.role, p.parent, MAX(a.depth) + 1 FROM rolegate_role_ancestors a
				JOIN rolegate_role_parents p ON p.ns = a.ns AND p.role = a.ancestor
				WHERE a.depth = ? AND p.parent <> a.role GROUP BY a.ns, a.role, p.parent
				ON CONFLICT (ns, role, ancestor) DO UPDATE SET depth = excluded.depth
				WHERE rolegate_role_ancestors.depth < excluded.depth`, depth)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				return err
			}
		}
		return nil
	})
}

func ancestorsDown(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, "DROP TABLE IF EXISTS rolegate_role_ancestors")
	return err
}

// lockInheritance serialises the changes of one namespace's inheritance on
// PostgreSQL (a transaction-scoped lock), so that two concurrent changes
// cannot each pass the cycle and limit checks, or each extend the closure
// from a state the other is changing. SQLite transactions are serial
// already.
func lockInheritance(ctx context.Context, db bun.IDB, s Scope) error {
	if !IsPostgres(db) {
		return nil
	}
	_, err := db.NewRaw("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", "rolegate_role_parents:"+s.NS).Exec(ctx)
	return Classify(err)
}

// linkAncestors adds to the closure what the new inheritance role -> parent
// brings: role and each role inheriting from it gain parent and each of
// parent's ancestors. One statement; rows already there keep the longer
// depth.
func linkAncestors(ctx context.Context, db bun.IDB, s Scope, role, parent string) error {
	_, err := db.NewRaw(`INSERT INTO rolegate_role_ancestors (ns, role, ancestor, depth)
		SELECT ?, d.role, a.ancestor, d.depth + a.depth + 1
		FROM (SELECT CAST(? AS TEXT) AS role, 0 AS depth
			UNION ALL SELECT role, depth FROM rolegate_role_ancestors WHERE ns = ? AND ancestor = ?) d
		CROSS JOIN (SELECT CAST(? AS TEXT) AS ancestor, 0 AS depth
			UNION ALL SELECT ancestor, depth FROM rolegate_role_ancestors WHERE ns = ? AND role = ?) a
		WHERE true
		ON CONFLICT (ns, role, ancestor) DO UPDATE SET depth = excluded.depth
		WHERE rolegate_role_ancestors.depth < excluded.depth`,
		s.NS, role, s.NS, role, parent, s.NS, parent).Exec(ctx)
	return Classify(err)
}

// unlinkAncestors rebuilds the closure of role and of every role inheriting
// from it, after an inheritance of role was removed.
func unlinkAncestors(ctx context.Context, db bun.IDB, s Scope, role string) error {
	levels, err := descendantLevels(ctx, db, s, role)
	if err != nil {
		return err
	}
	return rebuildAncestors(ctx, db, s, append([][]string{{role}}, levels...))
}

// forgetRoleAncestors removes role from inheritance before it is deleted:
// its links in both directions and its closure rows, and rebuilds the
// closure of the roles that inherited from it.
func forgetRoleAncestors(ctx context.Context, db bun.IDB, s Scope, role string) error {
	if err := lockInheritance(ctx, db, s); err != nil {
		return err
	}
	levels, err := descendantLevels(ctx, db, s, role)
	if err != nil {
		return err
	}
	for _, q := range []string{
		"DELETE FROM rolegate_role_parents WHERE ns = ? AND (role = ? OR parent = ?)",
		"DELETE FROM rolegate_role_ancestors WHERE ns = ? AND (role = ? OR ancestor = ?)",
	} {
		if _, err := db.NewRaw(q, s.NS, role, role).Exec(ctx); err != nil {
			return Classify(err)
		}
	}
	return rebuildAncestors(ctx, db, s, levels)
}

// descendantLevels lists the roles inheriting from role, directly or not,
// grouped by the length of their longest chain to it: levels[0] at 1,
// levels[1] at 2, and so on. A role's parents that inherit from role too
// are at a lower level, so rebuilding level by level reads only parents
// already rebuilt.
func descendantLevels(ctx context.Context, db bun.IDB, s Scope, role string) ([][]string, error) {
	var rows []struct {
		Role  string `bun:"role"`
		Depth int    `bun:"depth"`
	}
	if err := db.NewRaw("SELECT role, depth FROM rolegate_role_ancestors WHERE ns = ? AND ancestor = ?",
		s.NS, role).Scan(ctx, &rows); err != nil {
		return nil, Classify(err)
	}
	var levels [][]string
	for _, r := range rows {
		for len(levels) < r.Depth {
			levels = append(levels, nil)
		}
		levels[r.Depth-1] = append(levels[r.Depth-1], r.Role)
	}
	return levels, nil
}

// rebuildAncestors recomputes the closure rows of the roles of each level
// from their direct parents and the parents' closure rows: two statements
// per level.
func rebuildAncestors(ctx context.Context, db bun.IDB, s Scope, levels [][]string) error {
	for _, roles := range levels {
		if len(roles) == 0 {
			continue
		}
		if _, err := db.NewRaw("DELETE FROM rolegate_role_ancestors WHERE ns = ? AND role IN (?)",
			s.NS, bun.List(roles)).Exec(ctx); err != nil {
			return Classify(err)
		}
		if _, err := db.NewRaw(`INSERT INTO rolegate_role_ancestors (ns, role, ancestor, depth)
			SELECT ?, x.role, x.ancestor, MAX(x.depth) FROM (
				SELECT role, parent AS ancestor, 1 AS depth FROM rolegate_role_parents WHERE ns = ? AND role IN (?)
				UNION ALL SELECT p.role, a.ancestor, a.depth + 1 FROM rolegate_role_parents p
					JOIN rolegate_role_ancestors a ON a.ns = p.ns AND a.role = p.parent
					WHERE p.ns = ? AND p.role IN (?)) x
			GROUP BY x.role, x.ancestor`,
			s.NS, s.NS, bun.List(roles), s.NS, bun.List(roles)).Exec(ctx); err != nil {
			return Classify(err)
		}
	}
	return nil
}

// Defaults of the shape limits when Scope.MaxInheritanceDepth or
// Scope.MaxRoleAncestors is 0.
const (
	defaultMaxInheritanceDepth = 32
	defaultMaxRoleAncestors    = 256
)

// checkShape refuses (ErrShapeLimit) the inheritance role -> parent when it
// would give role, or a role inheriting from it, a chain of inheritances
// longer than s.MaxInheritanceDepth or more ancestors than
// s.MaxRoleAncestors. A few indexed reads of the closure.
func checkShape(ctx context.Context, db bun.IDB, s Scope, role, parent string) error {
	maxDepth, maxAnc := s.MaxInheritanceDepth, s.MaxRoleAncestors
	if maxDepth <= 0 {
		maxDepth = defaultMaxInheritanceDepth
	}
	if maxAnc <= 0 {
		maxAnc = defaultMaxRoleAncestors
	}
	// below: the longest chain from a role inheriting from role down to
	// role; above: parent's longest chain upwards; ancestors: how many
	// parent has; most: the most ancestors role or one below it has.
	var below, above, ancestors, most int
	err := db.NewRaw(`SELECT
		(SELECT COALESCE(MAX(depth), 0) FROM rolegate_role_ancestors WHERE ns = ? AND ancestor = ?),
		(SELECT COALESCE(MAX(depth), 0) FROM rolegate_role_ancestors WHERE ns = ? AND role = ?),
		(SELECT COUNT(*) FROM rolegate_role_ancestors WHERE ns = ? AND role = ?),
		(SELECT COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM rolegate_role_ancestors a
			WHERE a.ns = ? AND (a.role = ? OR a.role IN (SELECT role FROM rolegate_role_ancestors WHERE ns = ? AND ancestor = ?))
			GROUP BY a.role) c)`,
		s.NS, role, s.NS, parent, s.NS, parent, s.NS, role, s.NS, role).Scan(ctx, &below, &above, &ancestors, &most)
	if err != nil {
		return Classify(err)
	}
	if d := below + 1 + above; d > maxDepth {
		return fmt.Errorf("%w: it would make a chain of %d inheritances, past the limit of %d (AUTH_MAX_INHERITANCE_DEPTH)",
			ErrShapeLimit, d, maxDepth)
	}
	if most+ancestors+1 <= maxAnc {
		return nil
	}
	// Some of parent's ancestors may be there already: count exactly, per
	// role, the ancestors it would have.
	err = db.NewRaw(`WITH d(role) AS (SELECT CAST(? AS TEXT)
			UNION SELECT role FROM rolegate_role_ancestors WHERE ns = ? AND ancestor = ?),
		n(ancestor) AS (SELECT CAST(? AS TEXT)
			UNION SELECT ancestor FROM rolegate_role_ancestors WHERE ns = ? AND role = ?)
		SELECT COALESCE(MAX(
			(SELECT COUNT(*) FROM rolegate_role_ancestors x WHERE x.ns = ? AND x.role = d.role)
			+ (SELECT COUNT(*) FROM n WHERE n.ancestor NOT IN
				(SELECT ancestor FROM rolegate_role_ancestors y WHERE y.ns = ? AND y.role = d.role))), 0)
		FROM d`,
		role, s.NS, role, parent, s.NS, parent, s.NS, s.NS).Scan(ctx, &most)
	if err != nil {
		return Classify(err)
	}
	if most > maxAnc {
		return fmt.Errorf("%w: a role would inherit from %d roles, past the limit of %d (AUTH_MAX_ROLE_ANCESTORS)",
			ErrShapeLimit, most, maxAnc)
	}
	return nil
}
