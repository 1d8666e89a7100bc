package authz

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// hugeListSize is the list of the heap test and benchmark; each role has a
// 200-character description, so GET /api/roles answers about 24 MB.
const hugeListSize = 100_000

var hugeDescription = strings.Repeat("d", 200)

// seedHugeRoles writes n roles straight into the store (the library would
// take minutes), in statements of a thousand rows.
func seedHugeRoles(tb testing.TB, az *Authz, cl *Client, n int) {
	tb.Helper()
	ctx := context.Background()
	for i := 0; i < n; i += 1000 {
		var q strings.Builder
		args := make([]any, 0, 3000)
		q.WriteString("INSERT INTO rolegate_roles (ns, name, description, created_at) VALUES ")
		for j := i; j < i+1000 && j < n; j++ {
			if j > i {
				q.WriteByte(',')
			}
			q.WriteString("(?, ?, ?, CURRENT_TIMESTAMP)")
			args = append(args, cl.scope.NS, fmt.Sprintf("role-%06d", j), hugeDescription)
		}
		if _, err := az.db.NewRaw(q.String(), args...).Exec(ctx); err != nil {
			tb.Fatal(err)
		}
	}
}

// heapPeak runs fn while sampling HeapInuse every millisecond and returns
// the highest value seen above the level before fn (after a GC).
func heapPeak(fn func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	stop, done := make(chan struct{}), make(chan uint64, 1)
	// Stopped however fn ends (a failed check inside it ends the test
	// goroutine there): the sampler stops the world every millisecond.
	stopSampling := sync.OnceFunc(func() { close(stop) })
	defer stopSampling()
	go func() {
		peak := base
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				done <- peak
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	stopSampling()
	return <-done - base
}

// streamEntries reads a list's envelope as a stream, entry by entry (so
// that the test's own memory stays small), hands each entry of data to
// check (which fails the test on a wrong one), checks success, and
// returns the number of entries.
func streamEntries[E any](t testing.TB, r io.Reader, check func(i int, e E)) int {
	t.Helper()
	dec := json.NewDecoder(r)
	tok := func() json.Token {
		t.Helper()
		v, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if tok() != json.Delim('{') {
		t.Fatal("the body is not an object")
	}
	n, success := 0, false
	for dec.More() {
		switch tok() {
		case "data":
			if tok() != json.Delim('[') {
				t.Fatal("data is not a list")
			}
			for dec.More() {
				var e E
				if err := dec.Decode(&e); err != nil {
					t.Fatalf("entry %d: %v", n, err)
				}
				check(n, e)
				n++
			}
			tok()
		case "success":
			if err := dec.Decode(&success); err != nil {
				t.Fatal(err)
			}
		default:
			var skip any
			if err := dec.Decode(&skip); err != nil {
				t.Fatal(err)
			}
		}
	}
	if tok() != json.Delim('}') {
		t.Fatal("the body does not end with the object")
	}
	if !success {
		t.Fatal("success is false")
	}
	return n
}

// getList sends GET path to srv with the client key and hands the body of
// a 200 to read; it fails the test otherwise.
func getList(t testing.TB, srv *httptest.Server, key, path string, read func(io.Reader)) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Error(err)
		return
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET %s: status %d", path, res.StatusCode)
		return
	}
	read(res.Body)
}

// countRoles reads a GET /api/roles body as a stream and checks the order
// and the descriptions.
func countRoles(t testing.TB, r io.Reader) int {
	t.Helper()
	last := ""
	return streamEntries(t, r, func(i int, e Role) {
		if e.Role <= last || e.Description != hugeDescription {
			t.Fatalf("entry %d = %q after %q", i, e.Role, last)
		}
		last = e.Role
	})
}

// TestHugeListBoundedHeap: GET /api/roles over 100,000 roles (about 24 MB
// of JSON) answers every entry, in order, while the process's heap grows
// by far less than the response: before the lists streamed, the handler
// held every row, the entries and the marshalled body at once (about
// 120 MB of heap on SQLite). The bound is generous (8 MiB, a third of the body)
// so that GC timing cannot make it flaky.
func TestHugeListBoundedHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 100,000 roles")
	}
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, nil)
		key := newKey()
		cl := mustClient(t, az, key)
		t0 := time.Now()
		seedHugeRoles(t, az, cl, hugeListSize)
		t.Logf("seeded in %v", time.Since(t0))
		t0 = time.Now()
		defer func() { t.Logf("listed in %v", time.Since(t0)) }()
		srv := httptest.NewServer(newTestRouter(t, az, ""))
		t.Cleanup(srv.Close)
		defer debug.SetGCPercent(debug.SetGCPercent(50))
		n := 0
		peak := heapPeak(func() {
			getList(t, srv, key, "/api/roles", func(r io.Reader) { n = countRoles(t, r) })
		})
		if n != hugeListSize {
			t.Fatalf("listed %d roles, want %d", n, hugeListSize)
		}
		t.Logf("%s: heap peak %.1f MiB above the start for %d roles", target.Name, float64(peak)/(1<<20), n)
		if limit := uint64(8 << 20); peak > limit {
			t.Errorf("heap grew by %.1f MiB listing %d roles, want under %d MiB", float64(peak)/(1<<20), n, limit>>20)
		}
	})
}

// discardResponse is an http.ResponseWriter that counts and drops the body,
// so that a benchmark measures the handler, not a buffer of the response.
type discardResponse struct {
	h    http.Header
	code int
	n    int64
}

func (d *discardResponse) Header() http.Header         { return d.h }
func (d *discardResponse) WriteHeader(code int)        { d.code = code }
func (d *discardResponse) Flush()                      {}
func (d *discardResponse) Write(p []byte) (int, error) { d.n += int64(len(p)); return len(p), nil }

// BenchmarkListRoles100k: GET /api/roles over 100,000 roles on SQLite.
// Besides -benchmem's B/op it reports peak-heap-MiB, the highest HeapInuse
// seen (sampled every millisecond) above the level before the loop.
//
//	go test -run '^$' -bench BenchmarkListRoles100k -benchmem -benchtime 5x ./authz/
func BenchmarkListRoles100k(b *testing.B) {
	target := storagetest.SQLite(b)
	az := openTarget(b, target, nil)
	key := newKey()
	cl := mustClient(b, az, key)
	seedHugeRoles(b, az, cl, hugeListSize)
	e := newTestRouter(b, az, "")
	b.ReportAllocs()
	var size int64
	peak := heapPeak(func() {
		for b.Loop() {
			req := httptest.NewRequest(http.MethodGet, "/api/roles", nil)
			req.Header.Set("Authorization", "Bearer "+key)
			w := &discardResponse{h: http.Header{}}
			e.ServeHTTP(w, req)
			if w.code != http.StatusOK && w.code != 0 {
				b.Fatalf("status %d", w.code)
			}
			size = w.n
		}
	})
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(size)/(1<<20), "body-MiB")
}
