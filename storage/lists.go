package storage

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/uptrace/bun"
)

// ListWindow bounds how a list is read: the entries after After (a name;
// "" for the first), at most Limit of them (0: all), read from the store
// at most Window entries at a time. The Each* functions hand each window
// to a callback and then forget it, so a list of any length is read in
// memory that grows with Window, not with the list; a caller that writes
// each window out (the REST API) answers a list of 100,000 entries as
// cheaply as one of 1,000. Windows are separate queries: an entry added or
// removed while a list is read may or may not be in it, but no entry is
// listed twice and the order (Go's byte order of the plain names) holds.
//
// The lists count the memberships and grants held now (see Bounds); with
// All, the lists of direct memberships and grants (RolesOfUser,
// MembersOfRole, PermissionsOfRole) list every stored row, held now or
// not, for a caller that shows each row's bounds beside it.
type ListWindow struct {
	After  string
	Limit  int
	Window int // 0 or less: 1000
	All    bool
}

// direct is the condition a direct list puts on its rows (of alias, ""
// for none): held now, unless w.All.
func (w ListWindow) direct(s Scope, alias string) string {
	if w.All {
		return "1 = 1"
	}
	return s.held(alias)
}

func (w ListWindow) size(sent int) int {
	n := w.Window
	if n <= 0 {
		n = 1000
	}
	if w.Limit > 0 && w.Limit-sent < n {
		n = w.Limit - sent
	}
	return n
}

// EachRole calls fn with the roles of the namespace, window by window,
// sorted by name.
func EachRole(ctx context.Context, db bun.IDB, s Scope, w ListWindow, fn func([]Role) error) error {
	after, sent := w.After, 0
	for {
		n := w.size(sent)
		if n <= 0 {
			return nil
		}
		rows, err := db.QueryContext(ctx, "SELECT name, description FROM rolegate_roles WHERE ns = ? AND name"+
			byteOrder(ctx, db)+" > ? ORDER BY name"+byteOrder(ctx, db)+" LIMIT ?", s.NS, after, n)
		if err != nil {
			return Classify(err)
		}
		page := make([]Role, 0, n)
		for rows.Next() {
			var r Role
			if err := rows.Scan(&r.Name, &r.Description); err != nil {
				rows.Close()
				return Classify(err)
			}
			if r.Description, err = s.plainDescription(r.Description); err != nil {
				rows.Close()
				return err
			}
			page = append(page, r)
		}
		if err := closeRows(rows); err != nil {
			return err
		}
		if len(page) > 0 {
			if err := fn(page); err != nil {
				return err
			}
		}
		if len(page) < n {
			return nil
		}
		after, sent = page[len(page)-1].Name, sent+len(page)
	}
}

// eachUserRole calls fn with the roles the user is a member of, window by
// window, sorted.
func eachUserRole(ctx context.Context, db bun.IDB, s Scope, user string, w ListWindow, fn func([]string) error) error {
	return eachPlain(ctx, db, w, "role", "rolegate_memberships WHERE ns = ? AND user_name IN (?) AND "+w.direct(s, ""),
		[]any{s.NS, bun.List(s.userForms(user))}, fn)
}

// eachWhichRoleCan calls fn with the roles that hold the permission,
// granted or inherited, window by window, sorted.
func eachWhichRoleCan(ctx context.Context, db bun.IDB, s Scope, name string, w ListWindow, fn func([]string) error) error {
	return eachPlain(ctx, db, w, "role", "(WITH "+s.descendantsCTE()+" SELECT role FROM d) x WHERE 1 = 1",
		[]any{s.NS, bun.List(s.permForms(name)), s.NS}, fn)
}

// eachRolePermission calls fn with a role's permissions, window by window,
// sorted; ErrRoleNotFound (before any call) when the role does not exist.
func eachRolePermission(ctx context.Context, db bun.IDB, s Scope, role string, w ListWindow, fn func([]string) error) error {
	if err := requireRole(ctx, db, s, role); err != nil {
		return err
	}
	return eachStored(ctx, db, s.Permissions, w, "name", "rolegate_permissions WHERE ns = ? AND role = ? AND "+w.direct(s, ""), []any{s.NS, role}, fn)
}

// eachRoleMember calls fn with a role's members, window by window, sorted;
// ErrRoleNotFound (before any call) when the role does not exist.
func eachRoleMember(ctx context.Context, db bun.IDB, s Scope, role string, w ListWindow, fn func([]string) error) error {
	if err := requireRole(ctx, db, s, role); err != nil {
		return err
	}
	return eachStored(ctx, db, s.Users, w, "user_name", "rolegate_memberships WHERE ns = ? AND role = ? AND "+w.direct(s, ""), []any{s.NS, role}, fn)
}

// eachWhichUserCan calls fn with the users that hold the permission through
// any global membership (granted to the role or inherited by it), window
// by window, sorted.
func eachWhichUserCan(ctx context.Context, db bun.IDB, s Scope, name string, w ListWindow, fn func([]string) error) error {
	return eachStored(ctx, db, s.Users, w, "m.user_name", `rolegate_memberships m
		WHERE m.ns = ? AND m.role IN (WITH `+s.descendantsCTE()+` SELECT role FROM d) AND `+s.held("m"),
		[]any{s.NS, s.NS, bun.List(s.permForms(name)), s.NS}, fn)
}

// eachUserPermission calls fn with the permissions the user holds through
// any global membership, inherited ones included, window by window, sorted.
func eachUserPermission(ctx context.Context, db bun.IDB, s Scope, user string, w ListWindow, fn func([]string) error) error {
	return eachStored(ctx, db, s.Permissions, w, "p.name", `rolegate_permissions p
		WHERE p.ns = ? AND p.role IN (WITH m(role) AS (
			SELECT role FROM rolegate_memberships WHERE ns = ? AND user_name IN (?) AND `+s.held("")+`),
			`+fmt.Sprintf(ancestorsCTE, "SELECT role FROM m")+` SELECT role FROM r) AND `+s.held("p"),
		[]any{s.NS, s.NS, bun.List(s.userForms(user)), s.NS}, fn)
}

// byteOrder is the collation that orders and compares text in Go's byte
// order: SQLite's BINARY is memcmp, which for UTF-8 is byte order already;
// PostgreSQL's default collation may follow a locale, so the queries say
// COLLATE "C", which no (ns, name) index serves: each window then sorts
// the namespace's rows (about 70 ms per window for 100,000 roles, against
// 7 ms through the index). When the database's own collation already
// sorts as bytes (C, POSIX, C.UTF-8 under libc or the builtin provider,
// confirmed by a probe of awkward pairs) the index order is used.
func byteOrder(ctx context.Context, db bun.IDB) string {
	if !IsPostgres(db) {
		return ""
	}
	d := db.Dialect()
	if v, ok := bytewiseDBs.Load(d); ok && v.(bool) {
		return ""
	} else if ok {
		return ` COLLATE "C"`
	}
	ok := sortsAsBytes(ctx, db)
	bytewiseDBs.Store(d, ok)
	if ok {
		return ""
	}
	return ` COLLATE "C"`
}

// bytewiseDBs remembers sortsAsBytes per database (one dialect value per
// bun.DB, shared by its transactions and connections).
var bytewiseDBs sync.Map

// bytewiseProbe is in Go's byte order; a collation that orders any
// neighbouring pair otherwise is not byte order (case, accents, symbols,
// the private use area against supplementary characters, which UTF-16
// order would swap).
var bytewiseProbe = []string{"-", "1", "A", "B", "Z", "_", "a", "b", "e", "z", "~", "\u00e4", "\u00e9", "\u0101",
	"\u4e00", "\ue000", "\uffee", "\U0001F600"}

func sortsAsBytes(ctx context.Context, db bun.IDB) bool {
	var collate, provider string
	err := db.NewRaw("SELECT datcollate, datlocprovider::text FROM pg_database WHERE datname = current_database()").
		Scan(ctx, &collate, &provider)
	if err != nil || (provider != "c" && provider != "b") {
		return false
	}
	switch collate {
	case "C", "POSIX", "C.UTF-8", "C.utf8":
	default:
		return false
	}
	q := "SELECT bool_and(a < b) FROM (VALUES "
	args := []any{}
	for i := 0; i+1 < len(bytewiseProbe); i++ {
		if i > 0 {
			q += ", "
		}
		q += "(?::text, ?::text)"
		args = append(args, bytewiseProbe[i], bytewiseProbe[i+1])
	}
	var ok bool
	if err := db.NewRaw(q+") v(a, b)", args...).Scan(ctx, &ok); err != nil {
		return false
	}
	return ok
}

// eachPlain pages through a column stored in plain form (role names) in
// SQL: each window is the next n distinct values after the last one sent.
// from is the query after FROM, ending in its WHERE conditions.
func eachPlain(ctx context.Context, db bun.IDB, w ListWindow, col, from string, args []any, fn func([]string) error) error {
	after, sent := w.After, 0
	for {
		n := w.size(sent)
		if n <= 0 {
			return nil
		}
		// ORDER BY 1: PostgreSQL wants the ordering of a DISTINCT in its
		// select list, and the collated column is another expression.
		q := "SELECT DISTINCT " + col + byteOrder(ctx, db) + " FROM " + from + " AND " + col + byteOrder(ctx, db) +
			" > ? ORDER BY 1 LIMIT ?"
		rows, err := db.QueryContext(ctx, q, append(slices.Clip(args), after, n)...)
		if err != nil {
			return Classify(err)
		}
		page := make([]string, 0, n)
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return Classify(err)
			}
			page = append(page, v)
		}
		if err := closeRows(rows); err != nil {
			return err
		}
		if len(page) > 0 {
			if err := fn(page); err != nil {
				return err
			}
		}
		if len(page) < n {
			return nil
		}
		after, sent = page[len(page)-1], sent+len(page)
	}
}

// eachStored lists a column of permission or user names, which may be
// stored encrypted. Without encryption it pages in SQL like eachPlain.
// With it, the store cannot order or compare plain names, so each window
// is one pass over the rows that keeps only the n smallest plain names
// after the last one sent: memory stays at about 2n names whatever the
// length of the list, at the price of one pass per window (a list of
// 100,000 encrypted names with the default window is 100 passes; lists
// shorter than a window, the common case, take one).
func eachStored(ctx context.Context, db bun.IDB, c Codec, w ListWindow, col, from string, args []any, fn func([]string) error) error {
	if c == nil {
		return eachPlain(ctx, db, w, col, from, args, fn)
	}
	after, sent := w.After, 0
	q := "SELECT " + col + " FROM " + from
	for {
		n := w.size(sent)
		if n <= 0 {
			return nil
		}
		page, more, err := smallestAfter(ctx, db, c, q, args, after, n)
		if err != nil {
			return err
		}
		if len(page) > 0 {
			if err := fn(page); err != nil {
				return err
			}
		}
		if !more {
			return nil
		}
		after, sent = page[len(page)-1], sent+len(page)
	}
}

// smallestAfter reads every row of q and returns the n smallest distinct
// plain names greater than after, sorted, and whether there are more.
func smallestAfter(ctx context.Context, db bun.IDB, c Codec, q string, args []any, after string, n int) ([]string, bool, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, false, Classify(err)
	}
	keep := newSmallestN(n, strings.Compare, func(a, b string) bool { return a == b })
	for rows.Next() {
		var stored string
		if err := rows.Scan(&stored); err != nil {
			rows.Close()
			return nil, false, Classify(err)
		}
		p, err := plain(c, stored)
		if err != nil {
			rows.Close()
			return nil, false, err
		}
		if p > after {
			keep.offer(p)
		}
	}
	if err := closeRows(rows); err != nil {
		return nil, false, err
	}
	page, more := keep.result()
	return page, more, nil
}

func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return Classify(err)
}
