package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// RenameUser gives every membership of user, global and scoped, to
// newName, in the caller's transaction. When newName already holds a
// membership it is ErrUserExists, unless merge: then the memberships of
// both are merged, and those of user that newName holds already are
// dropped. moved counts the memberships user held (merged duplicates
// included); 0 when user had none. Names are matched in every stored
// form and written in the current one, as the other membership writes do.
//
// The check that newName holds nothing and the moves are statements of
// their own, so on PostgreSQL a membership of newName that another
// transaction commits between them meets the move as a duplicate key. The
// rename then runs again from the check, in a savepoint of db (the
// caller's transaction, or one of its own): without merge the check now
// refuses (ErrUserExists); with it the merge takes the new membership in.
// Each such try waited for a concurrent write of newName to commit, so a
// few suffice; past renameTries the rename is ErrUserExists, a conflict to
// try again, never a failure of the store.
func RenameUser(ctx context.Context, db bun.IDB, s Scope, user, newName string, merge bool) (moved int, err error) {
	for try := 1; ; try++ {
		err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			moved, err = renameUser(ctx, tx, s, user, newName, merge)
			return err
		})
		switch {
		case err == nil:
			return moved, nil
		case !isUniqueViolation(err):
			return 0, Classify(err)
		case try == renameTries:
			return 0, fmt.Errorf("%w: memberships of the new name kept being added during the rename; try again", ErrUserExists)
		}
	}
}

// renameTries bounds the tries of a rename whose moves met memberships of
// the new name committed meanwhile.
const renameTries = 5

// renameUser is one attempt of RenameUser.
func renameUser(ctx context.Context, db bun.IDB, s Scope, user, newName string, merge bool) (moved int, err error) {
	old, next := bun.List(s.userForms(user)), bun.List(s.userForms(newName))
	if db.Dialect().Name() == dialect.PG {
		// The namespace's revision row, which every write takes last
		// before it commits, is taken first here: a write that adds a
		// membership of newName and commits after the check below then
		// gets a later revision than the rename. Without it, such a write
		// could commit before the rename with the rename's check not
		// seeing it, and the change feed would replay a rename into a name
		// that holds memberships, which the rename itself refuses.
		// (SQLite runs one writer at a time.)
		if _, err := db.NewRaw("SELECT 1 FROM rolegate_revisions WHERE ns = ? FOR UPDATE", s.NS).Exec(ctx); err != nil {
			return 0, Classify(err)
		}
	}
	if !merge {
		taken, err := exists(ctx, db, `SELECT 1 WHERE EXISTS (SELECT 1 FROM rolegate_memberships WHERE ns = ? AND user_name IN (?))
			OR EXISTS (SELECT 1 FROM rolegate_scoped_memberships WHERE ns = ? AND user_name IN (?))`, s.NS, next, s.NS, next)
		if err != nil {
			return 0, err
		}
		if taken {
			return 0, ErrUserExists
		}
	}
	stmts := []struct {
		query string
		args  []any
	}{{
		// Merge: the global memberships newName holds already.
		`DELETE FROM rolegate_memberships WHERE ns = ? AND user_name IN (?)
			AND role IN (SELECT n.role FROM rolegate_memberships n WHERE n.ns = ? AND n.user_name IN (?))`,
		[]any{s.NS, old, s.NS, next},
	}, {
		// The same for scoped memberships, scope by scope.
		`DELETE FROM rolegate_scoped_memberships WHERE ns = ? AND user_name IN (?)
			AND EXISTS (SELECT 1 FROM rolegate_scoped_memberships n WHERE n.ns = rolegate_scoped_memberships.ns
				AND n.scope = rolegate_scoped_memberships.scope AND n.role = rolegate_scoped_memberships.role AND n.user_name IN (?))`,
		[]any{s.NS, old, next},
	}, {
		"UPDATE rolegate_memberships SET user_name = ? WHERE ns = ? AND user_name IN (?)",
		[]any{s.storedUser(newName), s.NS, old},
	}, {
		"UPDATE rolegate_scoped_memberships SET user_name = ? WHERE ns = ? AND user_name IN (?)",
		[]any{s.storedUser(newName), s.NS, old},
	}}
	for _, st := range stmts {
		res, err := db.NewRaw(st.query, st.args...).Exec(ctx)
		if err != nil {
			return 0, err // classified by RenameUser, which tells a duplicate key
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, Classify(err)
		}
		moved += int(n)
	}
	return moved, nil
}
