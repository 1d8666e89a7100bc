//go:build race

package authz

// raceDetector: the tests run under the race detector, which slows the
// store's reads (SQLite's translated C above all) by an order of
// magnitude; timing bounds are then logged, not asserted.
const raceDetector = true
