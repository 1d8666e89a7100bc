package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// wideRole is a role of issue 33's fifth attack: a name of 120 characters
// and a description of 1,024.
func wideRole(i int) string {
	return fmt.Sprintf(`{"op":"add_role","role":"r%05d-%s","description":"%s"}`, i, strings.Repeat("n", 114), strings.Repeat("d", 1024))
}

// fillWide sends key's namespace roles of wideRole, 500 a batch, until
// want are stored or a batch is refused 507; it returns how many are
// stored and the last refusal's body (nil when none).
func fillWide(t *testing.T, app *openApp, key string, want int) (stored int, refusal []byte) {
	t.Helper()
	for stored < want {
		var ops []string
		for i := stored; i < min(stored+500, want); i++ {
			ops = append(ops, wideRole(i))
		}
		code, b, _ := app.do(t, http.MethodPost, "/api/batch", key, batchBody(ops))
		switch code {
		case http.StatusCreated:
			stored += len(ops)
		case http.StatusInsufficientStorage:
			return stored, b
		case http.StatusTooManyRequests:
			time.Sleep(time.Second)
		default:
			t.Fatalf("a batch of wide roles: %d %.300s", code, b)
		}
	}
	return stored, nil
}

// textBytes is the bytes of text the namespace of key holds, as stored.
func textBytes(t *testing.T, db *bun.DB, key string) int64 {
	t.Helper()
	l := func(col string) string { return "length(CAST(" + col + " AS BLOB))" }
	if storage.IsPostgres(db) {
		l = func(col string) string { return "octet_length(" + col + ")" }
	}
	ns := storage.NamespaceOf(key)
	var n int64
	if err := db.NewRaw(`SELECT coalesce(sum(`+l("name")+` + `+l("description")+`), 0) FROM rolegate_roles WHERE ns = ?`, ns).
		Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// storeSize is the size of the store on disk: the SQLite file after a
// checkpoint, or the PostgreSQL schema's tables with their indexes.
func storeSize(t *testing.T, db *bun.DB) int64 {
	t.Helper()
	ctx := context.Background()
	var n int64
	if storage.IsPostgres(db) {
		if err := db.NewRaw(`SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
			JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = current_schema() AND c.relkind = 'r'`).Scan(ctx, &n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, err := db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	var pages, size int64
	if err := db.NewRaw("PRAGMA page_count").Scan(ctx, &pages); err != nil {
		t.Fatal(err)
	}
	if err := db.NewRaw("PRAGMA page_size").Scan(ctx, &size); err != nil {
		t.Fatal(err)
	}
	return pages * size
}

// Attack 5 of issue 33, rows not bytes: one key sends the 9,990
// roles of 120-character names and 1,024-character descriptions (the row
// quota lets them all in: 62 MB of SQLite a key, about 6 GB at the
// namespace limit). With AUTH_MAX_BYTES_PER_CLIENT (2 MiB by default), a
// batch that would pass it is refused 507 naming the setting, the
// namespace holds at most 2 MiB of text, and the store grows by at most
// 16 MB.
func TestOpenModeAttackBytesPerNamespace(t *testing.T) {
	needAttacks(t)
	bin, _ := hostappBinary(t)
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		app := startOpen(t, bin, target)
		db := app.openStore(t)
		key := uuid.NewString()
		app.must(t, http.MethodPost, "/api/role/r", key, nil, http.StatusCreated)
		before := storeSize(t, db)
		start := time.Now()
		stored, refusal := fillWide(t, app, key, 9990)
		took := time.Since(start)
		held, after := textBytes(t, db, key), storeSize(t, db)
		t.Logf("%s: %d of 9,990 wide roles stored in %v: %.2f MiB of text; the store %.1f -> %.1f MB (%+.1f MB); refusal: %.200s",
			target.Name, stored, took.Round(time.Millisecond), float64(held)/(1<<20), float64(before)/1e6, float64(after)/1e6, float64(after-before)/1e6, refusal)
		if refusal == nil || !bytes.Contains(refusal, []byte("AUTH_MAX_BYTES_PER_CLIENT")) {
			t.Errorf("no 507 naming AUTH_MAX_BYTES_PER_CLIENT: %d roles stored", stored)
		}
		if held > 2<<20 {
			t.Errorf("the namespace holds %.2f MiB of text, over 2 MiB", float64(held)/(1<<20))
		}
		if grew := after - before; grew > 16e6 {
			t.Errorf("the store grew by %.1f MB, over 16", float64(grew)/1e6)
		}
	})
}

// Attack 5 of issue 33, slow readers: 10 keys, each with 4,000 wide roles
// (4.6 MiB of text: AUTH_MAX_BYTES_PER_CLIENT raised to 16 MiB, so that a
// list is larger than what the connections buffer), and 40 readers of GET
// /api/roles (4 a key, the reads in flight a key may have) that send the
// request and read nothing, on connections with a 4 KiB receive buffer.
// While they stall, the process's live heap after a full GC holds at most
// 16 MiB more than before (each reader held a window of 1,000 roles, over
// a megabyte, until the 60 s write timeout: +181 MiB of RSS for 40), and
// another client's reads go on (200 each time, the slowest reported).
func TestOpenModeAttackStalledReaders(t *testing.T) {
	needAttacks(t)
	bin, _ := hostappBinary(t)
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		app := startOpen(t, bin, target, "GODEBUG=gctrace=1", "AUTH_MAX_BYTES_PER_CLIENT=16777216")
		victim := uuid.NewString()
		app.must(t, http.MethodPost, "/api/role/r", victim, nil, http.StatusCreated)
		keys := make([]string, 10)
		for i := range keys {
			keys[i] = uuid.NewString()
			if n, refusal := fillWide(t, app, keys[i], 4000); n != 4000 {
				t.Fatalf("key %d: %d wide roles stored: %.300s", i, n, refusal)
			}
		}
		// Each list read once in full first, so that the store's caches
		// (SQLite's page cache per connection) are warm before the level.
		for _, k := range keys {
			app.must(t, http.MethodGet, "/api/roles", k, nil, http.StatusOK)
		}
		addr := strings.TrimPrefix(app.base, "http://")
		liveBefore, rssBefore := app.liveHeap(t), app.rss()
		var conns []net.Conn
		for i := range 40 {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			conn.(*net.TCPConn).SetReadBuffer(4096)
			conns = append(conns, conn)
			fmt.Fprintf(conn, "GET /api/roles HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n", addr, keys[i%len(keys)])
		}
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		var times []time.Duration
		for range 40 {
			code, b, took := app.do(t, http.MethodGet, "/api/role/r", victim, nil)
			if code != http.StatusOK {
				t.Fatalf("the other client's read while 40 readers stall: %d %.200s", code, b)
			}
			times = append(times, took)
			time.Sleep(50 * time.Millisecond)
		}
		liveDuring, rssDuring := app.liveHeap(t), app.rss()
		slices.Sort(times)
		t.Logf("%s: 10 keys of 4,000 wide roles; 40 stalled readers of GET /api/roles: live heap after a full GC %d -> %d MiB (%+d MiB), RSS %s -> %s (%+.1f MiB); the other client's 40 reads meanwhile: p50 %v, slowest %v",
			target.Name, liveBefore, liveDuring, liveDuring-liveBefore, mib(rssBefore), mib(rssDuring), float64(rssDuring-rssBefore)/(1<<20),
			ms(percentile(times, 50)), ms(times[len(times)-1]))
		if grew := liveDuring - liveBefore; grew > 16 {
			t.Errorf("40 stalled readers hold %d MiB of live heap, over 16", grew)
		}
	})
}
