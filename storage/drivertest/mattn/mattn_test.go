//go:build cgo

package mattn

import (
	"testing"

	_ "github.com/mattn/go-sqlite3" // the host's own driver: registers "sqlite3"

	"github.com/rolegate/rolegate/storage/drivertest"
)

var driver = drivertest.Driver{Name: "sqlite3", BusyTimeout: "_busy_timeout=10000", ForeignKeys: "_foreign_keys=1"}

func TestOpenDB(t *testing.T) { drivertest.RunOpenDB(t, driver) }

func TestOpen(t *testing.T) { drivertest.RunOpen(t) }
