package storage

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/uptrace/bun"
)

// The scoped and effective views, streamed like the lists in lists.go:
// each reads at most a window of entries at a time, so a list of any
// length is answered in memory that grows with the window only.

// eachRoleParent calls fn with the roles role inherits from directly,
// window by window, sorted; ErrRoleNotFound (before any call) when the
// role does not exist.
func eachRoleParent(ctx context.Context, db bun.IDB, s Scope, role string, w ListWindow, fn func([]string) error) error {
	if err := requireRole(ctx, db, s, role); err != nil {
		return err
	}
	return eachPlain(ctx, db, w, "parent", "rolegate_role_parents WHERE ns = ? AND role = ?", []any{s.NS, role}, fn)
}

// eachRoleEffectivePermission calls fn with the permissions role holds,
// its own and inherited, window by window, sorted; ErrRoleNotFound (before
// any call) when the role does not exist.
func eachRoleEffectivePermission(ctx context.Context, db bun.IDB, s Scope, role string, w ListWindow, fn func([]string) error) error {
	if err := requireRole(ctx, db, s, role); err != nil {
		return err
	}
	return eachStored(ctx, db, s.Permissions, w, "p.name", `rolegate_permissions p
		WHERE p.ns = ? AND p.role IN (SELECT CAST(? AS TEXT)
			UNION ALL SELECT ancestor FROM rolegate_role_ancestors WHERE ns = ? AND role = ?) AND `+s.held("p"),
		[]any{s.NS, role, s.NS, role}, fn)
}

// eachUserPermissionIn calls fn with the permissions the user holds in
// scope (through global memberships and those in scope, inherited ones
// included), window by window, sorted.
func eachUserPermissionIn(ctx context.Context, db bun.IDB, s Scope, scope, user string, w ListWindow, fn func([]string) error) error {
	forms := bun.List(s.userForms(user))
	return eachStored(ctx, db, s.Permissions, w, "p.name", `rolegate_permissions p
		WHERE p.ns = ? AND p.role IN (WITH m(role) AS (
			SELECT role FROM rolegate_memberships WHERE ns = ? AND user_name IN (?) AND `+s.held("")+`
			UNION SELECT role FROM rolegate_scoped_memberships WHERE ns = ? AND scope = ? AND user_name IN (?) AND `+s.held("")+`),
			`+fmt.Sprintf(ancestorsCTE, "SELECT role FROM m")+` SELECT role FROM r) AND `+s.held("p"),
		[]any{s.NS, s.NS, forms, s.NS, scope, forms, s.NS}, fn)
}

// eachUserRoleIn calls fn with the user's roles globally (Scope empty) and
// in scope, window by window, sorted by role then scope (a role held both
// ways is two entries, the global one first). A page cut by w.Limit never
// ends between those two entries: the scoped twin is sent too (Limit+1
// entries), so the next page, read with After set to the last role, loses
// nothing.
func eachUserRoleIn(ctx context.Context, db bun.IDB, s Scope, scope, user string, w ListWindow, fn func([]Member) error) error {
	forms := bun.List(s.userForms(user))
	return eachMember(ctx, db, s, w, false, false,
		`SELECT role AS name, '' AS scope FROM rolegate_memberships WHERE ns = ? AND user_name IN (?) AND `+w.direct(s, "")+`
		UNION SELECT role, scope FROM rolegate_scoped_memberships WHERE ns = ? AND scope = ? AND user_name IN (?) AND `+w.direct(s, ""),
		[]any{s.NS, forms, s.NS, scope, forms}, fn)
}

// eachRoleMemberIn calls fn with the role's direct members globally and in
// scope, window by window, sorted by user then scope, a page never ending
// between a user's two entries (as eachUserRoleIn); ErrRoleNotFound (before
// any call) when the role does not exist.
func eachRoleMemberIn(ctx context.Context, db bun.IDB, s Scope, scope, role string, w ListWindow, fn func([]Member) error) error {
	if err := requireRole(ctx, db, s, role); err != nil {
		return err
	}
	return eachMember(ctx, db, s, w, true, false,
		`SELECT user_name AS name, '' AS scope FROM rolegate_memberships WHERE ns = ? AND role = ? AND `+w.direct(s, "")+`
		UNION SELECT user_name, scope FROM rolegate_scoped_memberships WHERE ns = ? AND scope = ? AND role = ? AND `+w.direct(s, ""),
		[]any{s.NS, role, s.NS, scope, role}, fn)
}

// eachWhichUserCanIn calls fn with the users holding the permission in
// scope, one entry per user (Scope empty when a global membership grants
// it), window by window, sorted.
func eachWhichUserCanIn(ctx context.Context, db bun.IDB, s Scope, scope, name string, w ListWindow, fn func([]Member) error) error {
	return eachMember(ctx, db, s, w, true, true, "WITH "+s.descendantsCTE()+`
		SELECT user_name AS name, '' AS scope FROM rolegate_memberships WHERE ns = ? AND role IN (SELECT role FROM d) AND `+s.held("")+`
		UNION SELECT user_name, scope FROM rolegate_scoped_memberships
			WHERE ns = ? AND scope = ? AND role IN (SELECT role FROM d) AND `+s.held(""),
		[]any{s.NS, bun.List(s.permForms(name)), s.NS, s.NS, s.NS, scope}, fn)
}

// memberCursor is where the next window starts: after (name, scope), or,
// with past, after every entry of name.
type memberCursor struct {
	name, scope string
	past        bool
}

func (c memberCursor) before(m Member) bool {
	if d := strings.Compare(m.Name, c.name); d != 0 || c.past {
		return d > 0
	}
	return m.Scope > c.scope
}

// eachMember pages through (name, scope) entries selected by union (two
// columns, name and scope; scope empty for a global membership). stored says
// the names may be stored encrypted (user names); onePerName keeps one
// entry per name, the global one when there is one (” sorts first).
func eachMember(ctx context.Context, db bun.IDB, s Scope, w ListWindow, stored, onePerName bool, union string,
	args []any, fn func([]Member) error) error {
	read := func(cur memberCursor, n int) ([]Member, bool, error) {
		if stored && s.encrypted() {
			return smallestMembersAfter(ctx, db, s, "SELECT name, scope FROM ("+union+") x", args, cur, n, onePerName)
		}
		page, err := plainMembersAfter(ctx, db, union, args, cur, n, onePerName)
		return page, len(page) == n, err
	}
	cur, sent := memberCursor{name: w.After, past: true}, 0
	var last Member
	for {
		n := w.size(sent)
		if n <= 0 {
			break
		}
		page, more, err := read(cur, n)
		if err != nil {
			return err
		}
		if len(page) > 0 {
			if err := fn(page); err != nil {
				return err
			}
			last = page[len(page)-1]
			cur, sent = memberCursor{name: last.Name, scope: last.Scope, past: onePerName}, sent+len(page)
		}
		if !more {
			return nil
		}
	}
	// The limit is reached. A name's global entry may be the last one sent
	// while its scoped twin follows: the next page (after=name) would skip
	// the twin, so it goes into this one.
	if onePerName || last.Name == "" || last.Scope != "" {
		return nil
	}
	twin, _, err := read(cur, 1)
	if err != nil || len(twin) == 0 || twin[0].Name != last.Name {
		return err
	}
	return fn(twin)
}

// plainMembersAfter reads the next n entries after cur in SQL.
func plainMembersAfter(ctx context.Context, db bun.IDB, union string, args []any, cur memberCursor, n int,
	onePerName bool) ([]Member, error) {
	c := byteOrder(ctx, db)
	var q string
	qargs := slices.Clip(args)
	switch {
	case onePerName:
		q = "SELECT name, MIN(scope) FROM (" + union + ") x WHERE name" + c + " > ? GROUP BY name ORDER BY name" + c + " LIMIT ?"
		qargs = append(qargs, cur.name, n)
	case cur.past:
		q = "SELECT name, scope FROM (" + union + ") x WHERE name" + c + " > ? ORDER BY name" + c + ", scope" + c + " LIMIT ?"
		qargs = append(qargs, cur.name, n)
	default:
		q = "SELECT name, scope FROM (" + union + ") x WHERE (name" + c + " > ? OR (name = ? AND scope" + c +
			" > ?)) ORDER BY name" + c + ", scope" + c + " LIMIT ?"
		qargs = append(qargs, cur.name, cur.name, cur.scope, n)
	}
	rows, err := db.QueryContext(ctx, q, qargs...)
	if err != nil {
		return nil, Classify(err)
	}
	page := make([]Member, 0, n)
	for rows.Next() {
		var m Member
		if err := rows.Scan(&m.Name, &m.Scope); err != nil {
			rows.Close()
			return nil, Classify(err)
		}
		page = append(page, m)
	}
	return page, closeRows(rows)
}

// smallestMembersAfter is smallestAfter for (name, scope) entries whose
// names may be encrypted: one pass over the rows keeping the n smallest
// entries after cur (about 2n in memory), and whether there are more.
func smallestMembersAfter(ctx context.Context, db bun.IDB, s Scope, q string, args []any, cur memberCursor, n int,
	onePerName bool) ([]Member, bool, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, false, Classify(err)
	}
	same := func(a, b Member) bool { return a == b }
	if onePerName {
		same = func(a, b Member) bool { return a.Name == b.Name }
	}
	keep := newSmallestN(n, compareMembers, same)
	for rows.Next() {
		var m Member
		if err := rows.Scan(&m.Name, &m.Scope); err != nil {
			rows.Close()
			return nil, false, Classify(err)
		}
		if m.Name, err = s.plainUser(m.Name); err != nil {
			rows.Close()
			return nil, false, err
		}
		if cur.before(m) {
			keep.offer(m)
		}
	}
	if err := closeRows(rows); err != nil {
		return nil, false, err
	}
	page, more := keep.result()
	return page, more, nil
}

func compareMembers(a, b Member) int {
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return strings.Compare(a.Scope, b.Scope)
}
