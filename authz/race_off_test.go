//go:build !race

package authz

// raceDetector: see race_on_test.go.
const raceDetector = false
