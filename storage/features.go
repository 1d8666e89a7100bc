package storage

import (
	"sync"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// Feature is something one store can do and another cannot. Code outside
// this package asks for the capability it relies on (Has(db, Listen)), not
// for a database by name, so that a store added later is one row in
// features rather than a hunt through every caller.
type Feature uint8

const (
	// Listen: the store announces a write to listening connections when it
	// commits (PostgreSQL's LISTEN/NOTIFY), so other processes hear of it
	// at once. Without it only a periodic read of the revisions does.
	Listen Feature = 1 << iota
	// SingleWriter: one write transaction at a time for the whole store
	// (SQLite's database lock), whichever client it is for.
	SingleWriter
	// Standby: the store is a hot standby of another (PostgreSQL in
	// recovery, found by OpenReplica): it answers reads of what it has
	// replayed so far, and takes no write, no lock and no LISTEN.
	Standby
)

// features is what each dialect's store can do.
var features = map[dialect.Name]Feature{
	dialect.PG:     Listen,
	dialect.SQLite: SingleWriter,
}

// standbys are the handles OpenReplica found to be standbys. What a
// server can do depends on the server, not only on its dialect; a handle
// keeps its server.
var standbys sync.Map // *bun.DB -> struct{}

// standbyLoses is what a standby cannot do of what its dialect can.
const standbyLoses = Listen

// Has reports whether db's store has the feature.
func Has(db bun.IDB, f Feature) bool {
	fs := features[db.Dialect().Name()]
	if d, ok := db.(*bun.DB); ok {
		if _, ok := standbys.Load(d); ok {
			fs = fs&^standbyLoses | Standby
		}
	}
	return fs&f != 0
}
