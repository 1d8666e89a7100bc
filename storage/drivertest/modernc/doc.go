// Package modernc runs rolegate on a host's own modernc.org/sqlite.
package modernc
