// Package storage keeps rolegate's data through Bun, on SQLite (pure Go,
// no cgo) or PostgreSQL: the models, the queries, the migrations, and the
// change notifications that let several replicas keep their caches right.
//
// Every row carries the namespace of its client: the SHA-256 digest of the
// normalised client key, never the key itself. Every function that reads or
// writes takes a bun.IDB, so a host app may pass its own transaction.
package storage
