// Package sqlite links the embedded SQLite driver, modernc.org/sqlite
// (pure Go: building needs no C toolchain), that authz.Open uses for its
// default store, a file at AUTH_SQLITE_PATH. Import it for its effect:
//
//	import _ "github.com/rolegate/rolegate/authz/sqlite"
//
// A host on PostgreSQL, or on its own *bun.DB (authz.OpenDB), does without
// it and links no SQLite. A host that links its own SQLite driver
// (github.com/mattn/go-sqlite3, as gorm's SQLite driver does, or
// modernc.org/sqlite) may leave it out too: Open's SQLite default then
// uses that driver, with foreign keys on in each one's spelling.
package sqlite

import _ "modernc.org/sqlite" // registers "sqlite" with database/sql
