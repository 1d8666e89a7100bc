package authz

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// slowBatch opens POST /api/batch on a connection of its own, declaring a
// body of 64 KiB and sending the first byte: the caller sends the rest (or
// not). The response, once there, comes on the channel (0: the connection
// closed with none).
func slowBatch(t *testing.T, srv *httptest.Server, key string) (net.Conn, <-chan int) {
	t.Helper()
	addr := strings.TrimPrefix(srv.URL, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST /api/batch HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", addr, key, 64<<10)
	answer := make(chan int, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			answer <- 0
			return
		}
		resp.Body.Close()
		answer <- resp.StatusCode
	}()
	return conn, answer
}

// In open mode, two batches whose bodies come a byte at a time hold no
// slot of the batches all clients may run: another client's batch is
// answered 201 meanwhile (it was 429 until the slow bodies' read timeout),
// and each slow body is refused 408 once it falls behind the least pace.
// On a real server over loopback, on both stores.
func TestSlowBatchBodiesHoldNoSharedSlot(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, nil)
		if !az.open() {
			t.Fatal("want open mode")
		}
		srv := httptest.NewServer(newTestRouter(t, az, ""))
		t.Cleanup(srv.Close)
		victim := newKey()
		httpDo(t, srv, http.MethodPost, "/api/role/r", victim, nil, http.StatusCreated)

		start := time.Now()
		var answers []<-chan int
		for range 2 {
			_, a := slowBatch(t, srv, newKey())
			answers = append(answers, a)
		}
		time.Sleep(200 * time.Millisecond) // both are reading their bodies
		for i := range 3 {
			body := fmt.Sprintf(`{"operations":[{"op":"add_permission","role":"r","permission":"p%d"}]}`, i)
			httpDo(t, srv, http.MethodPost, "/api/batch", victim, []byte(body), http.StatusCreated)
		}
		for i, a := range answers {
			select {
			case code := <-a:
				if code != http.StatusRequestTimeout {
					t.Errorf("slow body %d: %d, want 408", i, code)
				}
				t.Logf("%s: slow body %d answered %d after %v", target.Name, i, code, time.Since(start).Round(time.Millisecond))
			case <-time.After(15 * time.Second):
				t.Fatalf("slow body %d not answered in %v", i, time.Since(start))
			}
		}
	})
}
