//go:build !cgo

package mattn

import "testing"

func TestOpenDB(t *testing.T) {
	t.Skip("github.com/mattn/go-sqlite3 needs cgo: this build has none (CGO_ENABLED=0, or no C compiler found); install gcc, or set CGO_ENABLED=1 to fail instead of skipping")
}
