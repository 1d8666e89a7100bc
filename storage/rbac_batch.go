package storage

import (
	"context"
	"strings"

	"github.com/uptrace/bun"
)

// Grant is one permission of one role.
type Grant struct{ Role, Name string }

// grantRowsPerInsert keeps a multi-row insert under the bind parameter
// limits (3 per row).
const grantRowsPerInsert = 1000

// AddGrants grants many permissions to roles that the caller has seen
// exist in its transaction, a thousand per statement instead of two round
// trips each (AddPermission checks the role first). created[i] reports
// whether grants[i] was new; a grant given twice is new the first time
// only. A role deleted meanwhile fails the insert with ErrRoleNotFound.
func AddGrants(ctx context.Context, db bun.IDB, s Scope, grants []Grant) (created []bool, err error) {
	created = make([]bool, len(grants))
	type key struct{ role, stored string }
	first := make(map[key]int, len(grants))
	keys := make([]key, len(grants))
	var todo []int // first occurrences, in order
	for i, g := range grants {
		k := key{g.Role, s.storedPerm(g.Name)}
		keys[i] = k
		if _, dup := first[k]; !dup {
			first[k] = i
			todo = append(todo, i)
		}
	}
	for len(todo) > 0 {
		n := min(len(todo), grantRowsPerInsert)
		var q strings.Builder
		q.WriteString("INSERT INTO rolegate_permissions (ns, role, name) VALUES ")
		args := make([]any, 0, 3*n)
		for j, i := range todo[:n] {
			if j > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?)")
			args = append(args, s.NS, keys[i].role, keys[i].stored)
		}
		q.WriteString(" ON CONFLICT (ns, role, name) DO NOTHING RETURNING role, name")
		var rows []struct {
			Role string `bun:"role"`
			Name string `bun:"name"`
		}
		if err := db.NewRaw(q.String(), args...).Scan(ctx, &rows); err != nil {
			if isForeignKeyViolation(err) {
				return nil, ErrRoleNotFound
			}
			return nil, Classify(err)
		}
		for _, r := range rows {
			if i, found := first[key{r.Role, r.Name}]; found {
				created[i] = true
			}
		}
		todo = todo[n:]
	}
	return created, nil
}
