// Package examples holds programs that show and measure rolegate: hostapp,
// an existing Gin app that mounts rolegate and guards its own routes (the
// main command), minimal, the shortest integration, and the load and
// comparison tools.
package examples
