package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// Describe names the store for a startup line: "sqlite /path/file" or
// "postgresql 10.0.0.5:5432/app (schema public)". It asks the database
// itself, so it is right for a handle the host opened too, and it never
// shows a password. When the question fails it says so instead.
func Describe(ctx context.Context, db bun.IDB) string {
	if IsPostgres(db) {
		var dbname, schema, host string
		var port int
		err := db.QueryRowContext(ctx, `SELECT current_database(), coalesce(current_schema(), ''),
			coalesce(host(inet_server_addr()), 'socket'), coalesce(inet_server_port(), 0)`).Scan(&dbname, &schema, &host, &port)
		if err != nil {
			return "postgresql (cannot describe: " + Classify(err).Error() + ")"
		}
		return fmt.Sprintf("postgresql %s:%d/%s (schema %s)", host, port, dbname, schema)
	}
	var seq int
	var name, file string
	if err := db.QueryRowContext(ctx, "PRAGMA database_list").Scan(&seq, &name, &file); err != nil {
		return "sqlite (cannot describe: " + err.Error() + ")"
	}
	return "sqlite " + file
}
