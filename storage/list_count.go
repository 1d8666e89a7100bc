package storage

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// Count counts the entries of the list l, of the namespace only, whose
// names start with prefix ("": every entry), byte for byte: the total a
// list route reports beside one page. It counts the lists of nothing,
// Roles and UsersWithMembership; any other is an error.
//
// It is one statement with the list's own conditions and the prefix as a
// range of names, [prefix, the first name past it), which the primary
// keys, (ns, name) and (ns, user_name, ...), serve; compared in byte order
// like the lists' windows (under COLLATE "C" on a PostgreSQL database
// whose collation does not sort as bytes, where only ns is served).
// Encrypted user names cannot be compared in SQL: without a prefix their
// distinct stored forms are counted as they are; with one, the
// namespace's distinct user names are read once, a row at a time, and
// counted once decrypted. During a key rotation (before its background
// pass has reached a user) a user whose memberships are stored under both
// keys counts twice.
func (l List) Count(ctx context.Context, db bun.IDB, s Scope, prefix string) (int, error) {
	if !utf8.ValidString(prefix) {
		return 0, nil // no name is invalid UTF-8
	}
	switch l {
	case Roles:
		cond, args := prefixRange(ctx, db, "name", prefix)
		return countOf(ctx, db, "SELECT COUNT(*) FROM rolegate_roles WHERE ns = ?"+cond, append([]any{s.NS}, args...))
	case UsersWithMembership:
		if s.encrypted() && prefix != "" {
			return countUsersDecrypted(ctx, db, s, prefix)
		}
		cond, args := "", []any(nil)
		if !s.encrypted() {
			cond, args = prefixRange(ctx, db, "user_name", prefix)
		}
		q := "SELECT COUNT(*) FROM (SELECT user_name FROM rolegate_memberships WHERE ns = ?" + cond +
			" UNION SELECT user_name FROM rolegate_scoped_memberships WHERE ns = ?" + cond + ") u"
		a := append(append([]any{s.NS}, args...), s.NS)
		return countOf(ctx, db, q, append(a, args...))
	}
	return 0, errNoList(l, "by Count")
}

func countOf(ctx context.Context, db bun.IDB, q string, args []any) (int, error) {
	var n int
	err := db.NewRaw(q, args...).Scan(ctx, &n)
	return n, Classify(err)
}

// countUsersDecrypted counts the users whose plain names start with
// prefix, over the namespace's distinct stored user names, in memory that
// does not grow with them.
func countUsersDecrypted(ctx context.Context, db bun.IDB, s Scope, prefix string) (int, error) {
	rows, err := db.QueryContext(ctx, "SELECT user_name FROM rolegate_memberships WHERE ns = ?"+
		" UNION SELECT user_name FROM rolegate_scoped_memberships WHERE ns = ?", s.NS, s.NS)
	if err != nil {
		return 0, Classify(err)
	}
	n := 0
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return 0, Classify(err)
		}
		p, err := s.plainUser(v)
		if err != nil {
			rows.Close()
			return 0, err
		}
		if strings.HasPrefix(p, prefix) {
			n++
		}
	}
	return n, closeRows(rows)
}

// prefixRange is the condition that col starts with prefix, as a range in
// byte order (byteOrder), and its arguments: nothing for "".
func prefixRange(ctx context.Context, db bun.IDB, col, prefix string) (string, []any) {
	if prefix == "" {
		return "", nil
	}
	c := " AND " + col + byteOrder(ctx, db)
	if end, ok := prefixEnd(prefix); ok {
		return c + " >= ?" + c + " < ?", []any{prefix, end}
	}
	return c + " >= ?", []any{prefix}
}

// prefixEnd is the least string above every string that starts with p, in
// byte order: p with its last character raised by one (after dropping any
// trailing U+10FFFF, which has no successor). Since UTF-8 keeps the order
// of code points and no encoding is a prefix of another, the valid
// strings in [p, end) are exactly those that start with p. ok is false
// when there is no end (p is "" or only U+10FFFF): every valid string
// from p on starts with it.
func prefixEnd(p string) (end string, ok bool) {
	for p != "" {
		r, size := utf8.DecodeLastRuneInString(p)
		p = p[:len(p)-size]
		if r == utf8.MaxRune {
			continue
		}
		r++
		if r >= 0xD800 && r <= 0xDFFF { // no surrogates in UTF-8
			r = 0xE000
		}
		return p + string(r), true
	}
	return "", false
}
