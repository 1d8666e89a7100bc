package storage

import (
	"database/sql"
	"errors"
	"reflect"
)

// storage links no SQLite driver of its own: a host on PostgreSQL, or on
// its own *bun.DB, links none. Open's SQLite default uses a registered
// driver it knows how to configure: the embedded one (modernc.org/sqlite,
// which package authz/sqlite links) or the host's own. Each spells the
// same settings its own way, foreign keys first: rolegate's schema relies
// on them, and a DSN setting holds on every connection of the pool, where
// a PRAGMA run once would hold on one.
var sqliteDrivers = []struct {
	pkg string // the package path of the driver's type
	dsn string // the query of a file: URI
}{
	{"modernc.org/sqlite", "_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"},
	{"github.com/mattn/go-sqlite3", "_foreign_keys=1&_busy_timeout=10000&_journal_mode=WAL&_synchronous=NORMAL&_txlock=immediate"},
}

// ErrNoSQLiteDriver: Open was asked for SQLite and no SQLite driver it
// knows is registered with database/sql.
var ErrNoSQLiteDriver = errors.New(`storage: no SQLite driver is linked: import _ "github.com/rolegate/rolegate/authz/sqlite" for the embedded one (modernc.org/sqlite), or link your own (modernc.org/sqlite or github.com/mattn/go-sqlite3), or use PostgreSQL (AUTH_DATABASE_TYPE=postgresql)`)

// sqliteDriver returns the name under which a known SQLite driver is
// registered and the DSN query that configures it, the embedded driver
// first.
func sqliteDriver() (name, query string, err error) {
	byPkg := map[string]string{}
	for _, n := range sql.Drivers() { // sorted: the choice does not depend on init order
		if pkg := SQLiteDriverPackage(n); pkg != "" {
			if _, ok := byPkg[pkg]; !ok {
				byPkg[pkg] = n
			}
		}
	}
	for _, d := range sqliteDrivers {
		if n, ok := byPkg[d.pkg]; ok {
			return n, d.dsn, nil
		}
	}
	return "", "", ErrNoSQLiteDriver
}

// SQLiteDriverPackage returns the package path of the driver registered
// as name ("modernc.org/sqlite", "github.com/mattn/go-sqlite3"), or ""
// when none is.
func SQLiteDriverPackage(name string) string {
	db, err := sql.Open(name, "") // connects to nothing
	if err != nil {
		return ""
	}
	defer db.Close()
	return driverPackage(db)
}

// driverPackage is the package path of db's driver type.
func driverPackage(db *sql.DB) string {
	t := reflect.TypeOf(db.Driver())
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath()
}
