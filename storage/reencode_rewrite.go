package storage

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/uptrace/bun"
)

// How a re-encryption pass writes a row's new value. When the value is
// part of the primary key (a permission name, a member's user name) the
// row of the new value may exist already: a plain name and its encrypted
// twin, from the mixed mode of earlier versions. The row is then deleted
// instead, the twin kept. SQLite runs the rewrites one by one through
// prepared statements (rewriter); PostgreSQL runs a batch's rewrites as
// one statement (pgRewrites).

// rewriteSQL is col's rewrite of one row as statements with placeholders:
// update stores the new value, and when the value is part of the key
// (inKey >= 0) only if the row of the new key does not exist yet; del
// then deletes the row instead.
type rewriteSQL struct {
	update, del string
	inKey       int
}

func (col encryptedColumn) rewriteSQL() rewriteSQL {
	r := rewriteSQL{inKey: col.inKey()}
	where := strings.Join(col.pk, " = ? AND ") + " = ?"
	r.update = "UPDATE " + col.table + " SET " + col.col + " = ? WHERE " + where
	if r.inKey >= 0 {
		r.update += " AND NOT EXISTS (SELECT 1 FROM " + col.table + " WHERE " + where + ")"
		r.del = "DELETE FROM " + col.table + " WHERE " + where
	}
	return r
}

// inKey is the place of the encrypted column in the primary key, or -1.
func (col encryptedColumn) inKey() int {
	for i, k := range col.pk {
		if k == col.col {
			return i
		}
	}
	return -1
}

// updateArgs are update's arguments for the row with key key and the new
// value nv: the value, the key, and the twin's key when the value is in it.
func (r rewriteSQL) updateArgs(key []any, nv string) []any {
	args := append([]any{nv}, key...)
	if r.inKey >= 0 {
		twin := append([]any(nil), key...)
		twin[r.inKey] = nv
		args = append(args, twin...)
	}
	return args
}

// rewriter runs a batch's rewrites on SQLite through statements prepared
// once per batch: SQLite compiles a statement given as text on every run,
// which cost more than the rewrite itself.
type rewriter struct {
	of          rewriteSQL
	update, del *sql.Stmt // del is nil when the value is not part of the key
}

// prepare prepares the rewrites in tx; close releases them.
func (r rewriteSQL) prepare(ctx context.Context, tx bun.Tx) (rw rewriter, err error) {
	rw.of = r
	if r.del != "" {
		if rw.del, err = tx.PrepareContext(ctx, r.del); err != nil {
			return rw, err
		}
	}
	if rw.update, err = tx.PrepareContext(ctx, r.update); err != nil {
		rw.close()
	}
	return rw, err
}

func (rw rewriter) close() {
	for _, st := range []*sql.Stmt{rw.update, rw.del} {
		if st != nil {
			st.Close()
		}
	}
}

// rewrite stores nv as the value of the row with primary key key, or
// deletes the row when its twin exists.
func (rw rewriter) rewrite(ctx context.Context, key []any, nv string) error {
	res, err := rw.update.ExecContext(ctx, rw.of.updateArgs(key, nv)...)
	if err != nil || rw.del == nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n > 0 {
		return err
	}
	_, err = rw.del.ExecContext(ctx, key...)
	return err
}

// rewritesPerStatement bounds the rows of one PostgreSQL rewrite
// statement (a batch is 1,000 rows by default: one statement).
const rewritesPerStatement = 1000

// pgRewrites gathers a batch's rewrites on PostgreSQL and runs them as one
// statement per rewritesPerStatement: an UPDATE from a list of values
// instead of a statement a row, each parsed and planned on its own.
// Rewritten together, rows give the answer they would one by one, in key
// order: a row whose twin exists is deleted, and of rows whose new values
// are the same row (two old forms of one name), the first is rewritten
// and the others deleted.
type pgRewrites struct {
	col   encryptedColumn
	inKey int
	rows  []pgRewrite
	taken map[string]bool // new keys an earlier row of the batch takes
}

type pgRewrite struct {
	key []any
	nv  string
	dup bool // an earlier row takes the new key: delete this one
}

func (col encryptedColumn) pgRewrites() *pgRewrites {
	return &pgRewrites{col: col, inKey: col.inKey(), taken: map[string]bool{}}
}

func (p *pgRewrites) add(key []any, nv string) {
	r := pgRewrite{key: key, nv: nv}
	if p.inKey >= 0 {
		var k strings.Builder
		for i, v := range key {
			if i == p.inKey {
				v = nv
			}
			k.WriteString(strconv.Quote(fmt.Sprint(v)))
		}
		r.dup = p.taken[k.String()]
		p.taken[k.String()] = true
	}
	p.rows = append(p.rows, r)
}

// run writes the gathered rewrites.
func (p *pgRewrites) run(ctx context.Context, tx bun.IDB) error {
	for todo := p.rows; len(todo) > 0; {
		n := min(len(todo), rewritesPerStatement)
		q, args := p.statement(todo[:n])
		if _, err := tx.NewRaw(q, args...).Exec(ctx); err != nil {
			return err
		}
		todo = todo[n:]
	}
	return nil
}

// statement is rows' rewrite as one statement. With the value in the key,
// a data-modifying WITH deletes the rows that an earlier row of the list
// takes or whose twin exists, and the UPDATE rewrites the others: both
// see the table as it was before the statement, so the two sets of rows
// are apart.
func (p *pgRewrites) statement(rows []pgRewrite) (string, []any) {
	col := p.col
	names := make([]string, len(col.pk))
	match := make([]string, len(col.pk))
	twin := make([]string, len(col.pk))
	for i, k := range col.pk {
		names[i] = "k" + strconv.Itoa(i)
		match[i] = "t." + k + " = v." + names[i]
		twin[i] = "w." + k + " = v." + names[i]
		if i == p.inKey {
			twin[i] = "w." + k + " = v.nv"
		}
	}
	tuple := "(" + strings.Repeat("?, ", len(col.pk)) + "?, ?)"
	var q strings.Builder
	args := make([]any, 0, len(rows)*(len(col.pk)+2))
	q.WriteString("WITH v (" + strings.Join(names, ", ") + ", nv, dup) AS (VALUES ")
	for i, r := range rows {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString(tuple)
		args = append(append(args, r.key...), r.nv, r.dup)
	}
	q.WriteString(")")
	on := strings.Join(match, " AND ")
	if p.inKey < 0 {
		q.WriteString(" UPDATE " + col.table + " AS t SET " + col.col + " = v.nv FROM v WHERE " + on)
		return q.String(), args
	}
	hasTwin := "EXISTS (SELECT 1 FROM " + col.table + " AS w WHERE " + strings.Join(twin, " AND ") + ")"
	q.WriteString(", gone AS (DELETE FROM " + col.table + " AS t USING v WHERE " + on + " AND (v.dup OR " + hasTwin + "))")
	q.WriteString(" UPDATE " + col.table + " AS t SET " + col.col + " = v.nv FROM v WHERE " + on + " AND NOT v.dup AND NOT " + hasTwin)
	return q.String(), args
}
