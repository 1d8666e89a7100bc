package storage

import (
	"context"
	"strings"

	"github.com/uptrace/bun"
)

// Membership is one membership of a user in a role: in Scope, or global
// when Scope is "".
type Membership struct{ Scope, User, Role string }

// Memberships are many memberships added together: a thousand rows per
// statement instead of two round trips each.
type Memberships []Membership

// Bulk reports whether the memberships can be added together: every user
// name has one stored form (not while a key rotates, when AddMembership
// looks for each form).
func (ms Memberships) Bulk(s Scope) bool {
	if _, rotating := s.Users.(FormsCodec); rotating {
		return false
	}
	return true
}

// Add adds the memberships, without time bounds, to roles that the caller
// has seen exist in its transaction, as AddMembership does each: a new
// row is created; one that exists with bounds has them cleared (and is
// not new). created[i] reports whether ms[i] was new; a membership given
// twice is new the first time only. A role deleted meanwhile fails the
// insert with ErrRoleNotFound. unbound[i] reports whether ms[i] existed
// with bounds, now cleared (a change, as PutMembership's Changed). Call it
// only when Bulk.
func (ms Memberships) Add(ctx context.Context, db bun.IDB, s Scope) (created, unbound []bool, err error) {
	created, unbound = make([]bool, len(ms)), make([]bool, len(ms))
	type key struct{ scope, user, role string }
	first := map[key]int{}
	var global, scoped []key
	for i, m := range ms {
		k := key{m.Scope, s.storedUser(m.User), m.Role}
		if _, dup := first[k]; dup {
			continue
		}
		first[k] = i
		if k.scope == "" {
			global = append(global, k)
		} else {
			scoped = append(scoped, k)
		}
	}
	type row struct {
		Scope string `bun:"scope"`
		User  string `bun:"user_name"`
		Role  string `bun:"role"`
	}
	for _, t := range []struct {
		keys           []key
		table, cols    string
		tuple, returns string
		values         func(k key) []any
	}{
		{global, "rolegate_memberships", "user_name, role", "(?, ?, ?)", "'' AS scope, user_name, role",
			func(k key) []any { return []any{s.NS, k.user, k.role} }},
		{scoped, "rolegate_scoped_memberships", "scope, user_name, role", "(?, ?, ?, ?)", "scope, user_name, role",
			func(k key) []any { return []any{s.NS, k.scope, k.user, k.role} }},
	} {
		for todo := t.keys; len(todo) > 0; {
			m := min(len(todo), grantRowsPerInsert)
			var ins, upd strings.Builder
			ins.WriteString("INSERT INTO " + t.table + " (ns, " + t.cols + ") VALUES ")
			upd.WriteString("UPDATE " + t.table + " SET starts_at = NULL, expires_at = NULL WHERE ns = ? AND (starts_at IS NOT NULL OR expires_at IS NOT NULL) AND (" + t.cols + ") IN (VALUES ")
			args := make([]any, 0, 4*m)
			uargs := append(make([]any, 0, 3*m+1), s.NS)
			for j, k := range todo[:m] {
				if j > 0 {
					ins.WriteString(", ")
					upd.WriteString(", ")
				}
				ins.WriteString(t.tuple)
				args = append(args, t.values(k)...)
				v := t.values(k)[1:]
				upd.WriteString("(" + strings.TrimSuffix(strings.Repeat("?, ", len(v)), ", ") + ")")
				uargs = append(uargs, v...)
			}
			ins.WriteString(" ON CONFLICT DO NOTHING RETURNING " + t.returns)
			upd.WriteString(") RETURNING " + t.returns)
			var rows []row
			if err := db.NewRaw(ins.String(), args...).Scan(ctx, &rows); err != nil {
				if isForeignKeyViolation(err) {
					return nil, nil, ErrRoleNotFound
				}
				return nil, nil, Classify(err)
			}
			for _, r := range rows {
				if i, ok := first[key{r.Scope, r.User, r.Role}]; ok {
					created[i] = true
				}
			}
			if len(rows) < m {
				// Some existed: clear their bounds, as AddMembership does.
				var cleared []row
				if err := db.NewRaw(upd.String(), uargs...).Scan(ctx, &cleared); err != nil {
					return nil, nil, Classify(err)
				}
				for _, r := range cleared {
					if i, ok := first[key{r.Scope, r.User, r.Role}]; ok {
						unbound[i] = true
					}
				}
			}
			todo = todo[m:]
		}
	}
	return created, unbound, nil
}
