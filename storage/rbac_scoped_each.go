package storage

import (
	"context"
	"strings"

	"github.com/uptrace/bun"
)

// ScopedWindow bounds a read of every scoped membership of a namespace
// (EachScopedMembership): the entries after After in (scope, user, role)
// order (the zero value: from the first), at most Limit of them (0: all),
// read at most Window at a time (0 or less: 1000).
type ScopedWindow struct {
	After  ScopedMembership
	Limit  int
	Window int
	// Only, when a field is set, keeps the memberships of that scope,
	// user, role (each an equality the store's indexes serve).
	Only ScopedMembership
}

// filter is the condition and arguments of w.Only, the user in every
// stored form (encrypted, under the previous key, plain).
func (w ScopedWindow) filter(s Scope) (string, []any) {
	cond, args := "", []any(nil)
	if w.Only.Scope != "" {
		cond, args = cond+" AND scope = ?", append(args, w.Only.Scope)
	}
	if w.Only.User != "" {
		cond, args = cond+" AND user_name IN (?)", append(args, bun.List(s.userForms(w.Only.User)))
	}
	if w.Only.Role != "" {
		cond, args = cond+" AND role = ?", append(args, w.Only.Role)
	}
	return cond, args
}

// compareScoped orders scoped memberships by scope, user, role, in Go's
// byte order of the plain names.
func compareScoped(a, b ScopedMembership) int {
	if c := strings.Compare(a.Scope, b.Scope); c != 0 {
		return c
	}
	if c := strings.Compare(a.User, b.User); c != 0 {
		return c
	}
	return strings.Compare(a.Role, b.Role)
}

// EachScopedMembership calls fn with every scoped membership of the
// namespace, window by window, sorted by scope, user, role, with plain
// user names. Like the other Each* readers it holds one window in memory,
// never the namespace's whole table (AllScopedMemberships does): a backup
// of a million scoped memberships streams.
func EachScopedMembership(ctx context.Context, db bun.IDB, s Scope, w ScopedWindow, fn func([]ScopedMembership) error) error {
	lw := ListWindow{Limit: w.Limit, Window: w.Window}
	after, sent := w.After, 0
	for {
		n := lw.size(sent)
		if n <= 0 {
			return nil
		}
		var page []ScopedMembership
		var more bool
		var err error
		cond, args := w.filter(s)
		if !s.encrypted() {
			page, err = scopedPagePlain(ctx, db, s, after, n, cond, args)
			more = len(page) == n
		} else {
			page, more, err = scopedPageStored(ctx, db, s, after, n, cond, args)
		}
		if err != nil {
			return err
		}
		if len(page) > 0 {
			if err := fn(page); err != nil {
				return err
			}
		}
		if !more || len(page) == 0 {
			return nil
		}
		after, sent = page[len(page)-1], sent+len(page)
	}
}

// scopedPagePlain reads the next n memberships after the cursor in SQL:
// every column is stored plain, so the store orders and compares them in
// byte order. On PostgreSQL the query always says COLLATE "C" (byte order
// whatever the database's collation), the collation of the index
// rolegate_scoped_memberships_by_scope, so that each window is an index
// range. The table's primary key makes every (scope, user, role) unique.
func scopedPagePlain(ctx context.Context, db bun.IDB, s Scope, after ScopedMembership, n int, cond string, args []any) ([]ScopedMembership, error) {
	c := ""
	if IsPostgres(db) {
		c = ` COLLATE "C"`
	}
	q := "SELECT scope, user_name, role FROM rolegate_scoped_memberships WHERE ns = ?" + cond + " AND (scope" + c + ", user_name" + c + ", role" + c +
		") > (?, ?, ?) ORDER BY scope" + c + ", user_name" + c + ", role" + c + " LIMIT ?"
	rows, err := db.QueryContext(ctx, q, append(append([]any{s.NS}, args...), after.Scope, after.User, after.Role, n)...)
	if err != nil {
		return nil, Classify(err)
	}
	page := make([]ScopedMembership, 0, n)
	for rows.Next() {
		var m ScopedMembership
		if err := rows.Scan(&m.Scope, &m.User, &m.Role); err != nil {
			rows.Close()
			return nil, Classify(err)
		}
		page = append(page, m)
	}
	return page, closeRows(rows)
}

// scopedPageStored is the window of a namespace whose user names are
// stored encrypted: the store cannot order them, so each window is one
// pass over the rows from the cursor's scope on (scopes are plain) that
// keeps the n smallest entries after the cursor, as smallestAfter does for
// one column: memory stays at about 2n entries. A user stored both plain
// and encrypted (a namespace part-way through encryption) is listed once.
func scopedPageStored(ctx context.Context, db bun.IDB, s Scope, after ScopedMembership, n int, cond string, args []any) ([]ScopedMembership, bool, error) {
	rows, err := db.QueryContext(ctx, "SELECT scope, user_name, role FROM rolegate_scoped_memberships WHERE ns = ?"+cond+" AND scope"+
		byteOrder(ctx, db)+" >= ?", append(append([]any{s.NS}, args...), after.Scope)...)
	if err != nil {
		return nil, false, Classify(err)
	}
	keep := newSmallestN(n, compareScoped, func(a, b ScopedMembership) bool { return a == b })
	for rows.Next() {
		var m ScopedMembership
		if err := rows.Scan(&m.Scope, &m.User, &m.Role); err != nil {
			rows.Close()
			return nil, false, Classify(err)
		}
		if m.User, err = s.plainUser(m.User); err != nil {
			rows.Close()
			return nil, false, err
		}
		if compareScoped(m, after) > 0 {
			keep.offer(m)
		}
	}
	if err := closeRows(rows); err != nil {
		return nil, false, err
	}
	page, more := keep.result()
	return page, more, nil
}
