// Package mattn runs rolegate on a host's own github.com/mattn/go-sqlite3,
// the driver gorm's SQLite driver links. It needs cgo and a C compiler;
// without them its tests skip, saying so. CI runs them with CGO_ENABLED=1,
// where a missing compiler fails the build instead.
package mattn
