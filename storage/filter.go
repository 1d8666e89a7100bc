package storage

import (
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/schema"
)

// WhereIn adds "column holds one of values" to q, a query of the host's
// own table (values not empty): on a store that takes an array as one
// value (PostgreSQL), column = ANY(?) with the values as one array, so the
// statement's text is the same whatever their number; elsewhere column
// IN (...). Bun writes the values into the statement it sends, so no
// bound on query parameters applies on either store.
func WhereIn(q *bun.SelectQuery, column string, values []string) *bun.SelectQuery {
	if takesArrays(q.Dialect()) {
		return q.Where("? = ANY(?)", bun.Ident(column), pgdialect.Array(values))
	}
	return q.Where("? IN (?)", bun.Ident(column), bun.In(values))
}

// takesArrays reports whether the dialect writes a Go slice as one array
// value (pgdialect.Array). Bun declares no feature flag for it, so the
// question is answered by the dialect's name, here and nowhere else.
func takesArrays(d schema.Dialect) bool { return d.Name() == dialect.PG }
