package modernc

import (
	"testing"

	_ "modernc.org/sqlite" // the host's own driver: registers "sqlite"

	"github.com/rolegate/rolegate/storage/drivertest"
)

var driver = drivertest.Driver{Name: "sqlite", BusyTimeout: "_pragma=busy_timeout(10000)", ForeignKeys: "_pragma=foreign_keys(1)"}

func TestOpenDB(t *testing.T) { drivertest.RunOpenDB(t, driver) }

func TestOpen(t *testing.T) { drivertest.RunOpen(t) }
