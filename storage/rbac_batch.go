package storage

import (
	"context"
	"strings"

	"github.com/uptrace/bun"
)

// Grant is one permission of one role.
type Grant struct{ Role, Name string }

// grantRowsPerInsert keeps a statement of many rows under the bind
// parameter limits (3 per row at most).
const grantRowsPerInsert = 1000

// Grants are many grants written together: a thousand per statement
// instead of a round trip or two each.
type Grants []Grant

// Add grants the permissions to roles that the caller has seen exist in
// its transaction (AddPermission checks the role first). created[i]
// reports whether grants[i] was new; a grant given twice is new the first
// time only. A role deleted meanwhile fails the insert with
// ErrRoleNotFound.
func (grants Grants) Add(ctx context.Context, db bun.IDB, s Scope) (created []bool, err error) {
	var rows grantRows
	for i, g := range grants {
		rows.add(i, grantKey{g.Role, s.storedPerm(g.Name)})
	}
	created, err = rows.run(ctx, db, len(grants), grantStatement{
		head: "INSERT INTO rolegate_permissions (ns, role, name) VALUES ", tuple: "(?, ?, ?)",
		values: func(k grantKey) []any { return []any{s.NS, k.role, k.stored} },
		tail:   " ON CONFLICT (ns, role, name) DO NOTHING RETURNING role, name"})
	if isForeignKeyViolation(err) {
		return nil, ErrRoleNotFound
	}
	if err != nil {
		return nil, Classify(err)
	}
	return created, nil
}

// Unbound takes the time bounds off the grants that have some, as an add
// without bounds does to a grant that exists (see PutPermission);
// changed[i] reports whether grants[i] had bounds.
func (grants Grants) Unbound(ctx context.Context, db bun.IDB, s Scope) (changed []bool, err error) {
	var rows grantRows
	for i, g := range grants {
		for _, form := range s.permForms(g.Name) {
			rows.add(i, grantKey{g.Role, form})
		}
	}
	changed, err = rows.run(ctx, db, len(grants), grantStatement{
		head: "UPDATE rolegate_permissions SET starts_at = NULL, expires_at = NULL WHERE ns = ?" +
			" AND (starts_at IS NOT NULL OR expires_at IS NOT NULL) AND (role, name) IN (VALUES ", headArgs: []any{s.NS},
		tuple: "(?, ?)", values: func(k grantKey) []any { return []any{k.role, k.stored} },
		tail: ") RETURNING role, name"})
	return changed, Classify(err)
}

// Delete revokes the grants, as DeletePermission does each (a role that
// does not exist holds nothing to revoke), every stored form of a name.
// deleted[i] reports whether grants[i] was there; a grant given twice is
// deleted the first time only.
func (grants Grants) Delete(ctx context.Context, db bun.IDB, s Scope) (deleted []bool, err error) {
	var rows grantRows
	for i, g := range grants {
		for _, form := range s.permForms(g.Name) {
			rows.add(i, grantKey{g.Role, form})
		}
	}
	deleted, err = rows.run(ctx, db, len(grants), grantStatement{
		head: "DELETE FROM rolegate_permissions WHERE ns = ? AND (role, name) IN (VALUES ", headArgs: []any{s.NS},
		tuple: "(?, ?)", values: func(k grantKey) []any { return []any{k.role, k.stored} },
		tail: ") RETURNING role, name"})
	return deleted, Classify(err)
}

// grantKey is a grant as stored: its role and one stored form of its name.
type grantKey struct{ role, stored string }

// grantRows are the rows of many grants, each once, with the grant each
// came from first, in order.
type grantRows struct {
	first map[grantKey]int
	keys  []grantKey
}

func (r *grantRows) add(i int, k grantKey) {
	if r.first == nil {
		r.first = map[grantKey]int{}
	}
	if _, dup := r.first[k]; !dup {
		r.first[k] = i
		r.keys = append(r.keys, k)
	}
}

// grantStatement is a statement over many rows: head (with headArgs),
// then a tuple per row (with values), then tail, which returns the rows
// it wrote as (role, name).
type grantStatement struct {
	head     string
	headArgs []any
	tuple    string
	values   func(grantKey) []any
	tail     string
}

// run writes the rows, grantRowsPerInsert to a statement; hit[i] reports
// whether a row of grant i (of n) was written.
func (r *grantRows) run(ctx context.Context, db bun.IDB, n int, st grantStatement) (hit []bool, err error) {
	hit = make([]bool, n)
	for todo := r.keys; len(todo) > 0; {
		m := min(len(todo), grantRowsPerInsert)
		var q strings.Builder
		q.WriteString(st.head)
		args := append(make([]any, 0, len(st.headArgs)+3*m), st.headArgs...)
		for j, k := range todo[:m] {
			if j > 0 {
				q.WriteString(", ")
			}
			q.WriteString(st.tuple)
			args = append(args, st.values(k)...)
		}
		q.WriteString(st.tail)
		var rows []struct {
			Role string `bun:"role"`
			Name string `bun:"name"`
		}
		if err := db.NewRaw(q.String(), args...).Scan(ctx, &rows); err != nil {
			return nil, err
		}
		for _, row := range rows {
			if i, found := r.first[grantKey{row.Role, row.Name}]; found {
				hit[i] = true
			}
		}
		todo = todo[m:]
	}
	return hit, nil
}
