package authz

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// In open mode a client writes at most AUTH_OPEN_WRITES_PER_SECOND, in
// bursts of twice that: past it the REST API answers 429 with
// Retry-After and stores nothing, the library returns ErrRateLimited (a
// *RateLimitError), and another client is not held back. With admin keys
// there is no such limit.
func TestOpenModeWriteRate(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		// One write a second, bursts of 2: the burst and the refusals run
		// well within the second it takes a write to come back, even on a
		// loaded machine (at 5 a second, 10 writes taking over 200 ms to
		// PostgreSQL got a write back before the refusal).
		az, _ := openREST(t, target, func(c *Config) { c.OpenWritesPerSecond = 1 })
		e := newTestRouter(t, az, "")
		key := newKey()
		for i := range 2 { // the burst
			if w := performRequest(e, http.MethodPost, "/api/role/r"+string(rune('a'+i)), key, nil); w.Code != http.StatusCreated {
				t.Fatalf("write %d of the burst: %d %s", i, w.Code, w.Body)
			}
		}
		w := performRequest(e, http.MethodPost, "/api/role/over", key, nil)
		body := checkEnvelope(t, w, http.StatusTooManyRequests)
		if ra := w.Header().Get("Retry-After"); ra != "1" {
			t.Errorf("Retry-After = %q, want 1", ra)
		}
		if d, _ := body["error"].(string); !strings.Contains(d, "AUTH_OPEN_WRITES_PER_SECOND") {
			t.Errorf("error %q does not name the setting", d)
		}
		if ok, err := mustClient(t, az, key).GetRole(ctx, "over"); err == nil {
			t.Errorf("the refused write was stored: %+v", ok)
		}
		w = performRequest(e, http.MethodPost, "/api/batch", key, strings.NewReader(`{"operations":[{"op":"add_role","role":"b"}]}`))
		checkEnvelope(t, w, http.StatusTooManyRequests)
		if w.Header().Get("Retry-After") == "" {
			t.Error("batch 429 without Retry-After")
		}
		// The library of the same client is held to the same rate.
		_, err := mustClient(t, az, key).AddRole(ctx, "lib", "")
		var rl *RateLimitError
		if !errors.Is(err, ErrRateLimited) || !errors.As(err, &rl) || rl.RetryAfter <= 0 {
			t.Errorf("library write over the rate: %v, want ErrRateLimited with a delay", err)
		}
		// Another client has its own rate.
		if w := performRequest(e, http.MethodPost, "/api/role/x", newKey(), nil); w.Code != http.StatusCreated {
			t.Errorf("another client: %d %s", w.Code, w.Body)
		}
		// Reads are not writes.
		checkEnvelope(t, performRequest(e, http.MethodGet, "/api/roles", key, nil), http.StatusOK)

		admin := uuid.NewString()
		closed, _ := openREST(t, freshTarget(t, target), func(c *Config) { c.OpenWritesPerSecond = 5; c.ClientKey = admin })
		ce := newTestRouter(t, closed, "")
		for i := range 30 {
			if w := performRequest(ce, http.MethodPost, "/api/role/r"+string(rune('a'+i)), admin, nil); w.Code != http.StatusCreated {
				t.Fatalf("admin write %d: %d %s", i, w.Code, w.Body)
			}
		}
	})
}

// In open mode a client has at most AUTH_MAX_READS_IN_FLIGHT store-reading
// requests running at once: one more is 429 with Retry-After; another
// client, and the same client's writes, are not held back.
func TestOpenModeReadsInFlight(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, _ := openREST(t, target, func(c *Config) { c.MaxReadsInFlight = 4 })
		e := newTestRouter(t, az, "")
		key := newKey()
		checkEnvelope(t, performRequest(e, http.MethodPost, "/api/role/r", key, nil), http.StatusCreated)
		// Four requests of this client in flight, held here.
		fp := mustClient(t, az, key).fingerprint
		var held []func()
		for range 4 {
			release, err := az.readGate.Acquire(fp)
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, release)
		}
		for _, path := range []string{"/api/roles", "/api/role/r", "/api/has_permission/u/p", "/api/role_permissions/r?effective=true"} {
			w := performRequest(e, http.MethodGet, path, key, nil)
			body := checkEnvelope(t, w, http.StatusTooManyRequests)
			if w.Header().Get("Retry-After") != "1" {
				t.Errorf("%s: Retry-After = %q, want 1", path, w.Header().Get("Retry-After"))
			}
			if d, _ := body["error"].(string); !strings.Contains(d, "AUTH_MAX_READS_IN_FLIGHT") {
				t.Errorf("%s: error %q does not name the setting", path, d)
			}
		}
		checkEnvelope(t, performRequest(e, http.MethodPost, "/api/role/w", key, nil), http.StatusCreated)
		checkEnvelope(t, performRequest(e, http.MethodGet, "/api/roles", newKey(), nil), http.StatusOK)
		held[0]()
		checkEnvelope(t, performRequest(e, http.MethodGet, "/api/roles", key, nil), http.StatusOK)
		for _, r := range held[1:] {
			r()
		}
	})
}

// heldBody is a request body that blocks its first read until released,
// and counts the reads: a batch held in flight, and a witness of whether
// a refused batch's body was read at all.
type heldBody struct {
	started, release chan struct{}
	reads            atomic.Int32
	r                io.Reader
}

func newHeldBody(s string) *heldBody {
	return &heldBody{started: make(chan struct{}), release: make(chan struct{}), r: strings.NewReader(s)}
}

func (b *heldBody) Read(p []byte) (int, error) {
	if b.reads.Add(1) == 1 {
		close(b.started)
		<-b.release
	}
	return b.r.Read(p)
}

// In open mode a batch is let in before its body is read: a client with
// no write left is refused 429 without the body being read, and a client
// has one batch in flight at a time (one more is 429 with Retry-After).
// Two batches whose bodies are still being read hold no slot of all
// clients': a third client's batch goes through meanwhile. The slots of
// the batches of all clients running (two) are taken once a body is read,
// and the bytes of body held by all clients (maxBatchBodyBytesHeld) as
// they are read: one more is 429 naming the bound.
func TestOpenModeBatchesInFlight(t *testing.T) {
	target := storagetest.SQLite(t)
	az, _ := openREST(t, target, func(c *Config) { c.OpenWritesPerSecond = 1 })
	e := newTestRouter(t, az, "")
	batch := `{"operations":[{"op":"add_role","role":"b"}]}`

	// Over the write rate: refused, the body untouched.
	spent := newKey()
	for i := range 2 {
		if w := performRequest(e, http.MethodPost, "/api/role/r"+string(rune('a'+i)), spent, nil); w.Code != http.StatusCreated {
			t.Fatalf("write %d of the burst: %d %s", i, w.Code, w.Body)
		}
	}
	body := newHeldBody(batch)
	close(body.release)
	w := performRequest(e, http.MethodPost, "/api/batch", spent, body)
	checkEnvelope(t, w, http.StatusTooManyRequests)
	if n := body.reads.Load(); n != 0 {
		t.Errorf("the body of a batch over the write rate was read (%d reads)", n)
	}

	// One batch per client in flight; bodies being read hold no slot of
	// all clients'.
	a, b, c := newKey(), newKey(), newKey()
	held := map[string]*heldBody{a: newHeldBody(batch), b: newHeldBody(batch)}
	done := make(chan int, 2)
	for _, k := range []string{a, b} {
		go func() { done <- performRequest(e, http.MethodPost, "/api/batch", k, held[k]).Code }()
		<-held[k].started
	}
	w = performRequest(e, http.MethodPost, "/api/batch", a, strings.NewReader(batch))
	reply := checkEnvelope(t, w, http.StatusTooManyRequests)
	if msg, _ := reply["error"].(string); !strings.Contains(msg, "one batch at a time") || w.Header().Get("Retry-After") == "" {
		t.Errorf("a second batch of one client: %q, Retry-After %q", msg, w.Header().Get("Retry-After"))
	}
	checkEnvelope(t, performRequest(e, http.MethodPost, "/api/batch", c, strings.NewReader(batch)), http.StatusCreated)
	for _, h := range held {
		close(h.release)
	}
	for range 2 {
		if code := <-done; code != http.StatusCreated {
			t.Errorf("a held batch answered %d", code)
		}
	}

	// The running slots and the bytes, through the gates themselves.
	var gates []interface{ Release() }
	defer func() {
		for _, g := range gates {
			g.Release()
		}
	}()
	for i := range maxOpenBatches {
		g, err := az.admitBatch(mustClient(t, az, newKey()))
		if err != nil {
			t.Fatal(err)
		}
		gates = append(gates, g)
		if err := g.Run(); err != nil {
			t.Fatalf("running batch %d: %v", i, err)
		}
	}
	g, err := az.admitBatch(mustClient(t, az, newKey()))
	if err != nil {
		t.Fatal(err)
	}
	gates = append(gates, g)
	if err := g.Run(); !errors.Is(err, ErrRateLimited) || !strings.Contains(err.Error(), "batches at a time of all clients") {
		t.Errorf("a batch past %d running: %v", maxOpenBatches, err)
	}
	if err := g.Take(maxBatchBodyBytesHeld); err != nil {
		t.Fatalf("taking the whole bound of bytes: %v", err)
	}
	g2, err := az.admitBatch(mustClient(t, az, newKey()))
	if err != nil {
		t.Fatal(err)
	}
	gates = append(gates, g2)
	if err := g2.Take(1); !errors.Is(err, ErrRateLimited) || !strings.Contains(err.Error(), "MiB of batch bodies") {
		t.Errorf("a byte past the bound: %v", err)
	}
	g.Release()
	if err := g2.Take(1); err != nil {
		t.Errorf("after the bytes were given back: %v", err)
	}
}
