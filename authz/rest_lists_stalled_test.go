package authz

import (
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// A reader of GET /api/roles that stops reading holds one window of the
// list while the server waits to write it, and roles (which carry their
// descriptions) are read 100 to a window: 10 such readers of 4,000 roles
// of 1 KiB descriptions hold a few MiB of heap in all (they held 12 MiB
// with windows of 1,000 roles; 40 readers held +49 MiB in hostapp). On a
// real server over loopback, on both stores.
func TestStalledRoleListHoldsAWindow(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, func(c *Config) { c.MaxBytesPerClient = 1 << 30 })
		srv := httptest.NewServer(newTestRouter(t, az, ""))
		t.Cleanup(srv.Close)
		key := newKey()
		var ops []Operation
		for i := range 4000 {
			ops = append(ops, Operation{Op: "add_role", Role: fmt.Sprintf("r%05d-%s", i, strings.Repeat("n", 114)), Description: strings.Repeat("d", MaxDescriptionLength)})
		}
		if _, err := mustClient(t, az, key).Batch(context.Background(), ops); err != nil {
			t.Fatal(err)
		}
		addr := strings.TrimPrefix(srv.URL, "http://")
		before := heapInUse()
		for range 10 {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.Close() })
			conn.(*net.TCPConn).SetReadBuffer(4096)
			fmt.Fprintf(conn, "GET /api/roles HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n", addr, key)
		}
		time.Sleep(2 * time.Second) // the readers' buffers fill, the writes stall
		grew := int64(heapInUse()) - int64(before)
		t.Logf("%s: 10 stalled readers of 4,000 roles hold %+.1f MiB of heap", target.Name, float64(grew)/(1<<20))
		if grew > 6<<20 {
			t.Errorf("10 stalled readers hold %.1f MiB of heap, over 6", float64(grew)/(1<<20))
		}
	})
}
