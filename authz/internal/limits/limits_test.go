package limits

import (
	"errors"
	"fmt"
	"testing"
)

func TestWriteRateBurstThenRefused(t *testing.T) {
	w := NewWriteRate(50, "AUTH_OPEN_WRITES_PER_SECOND")
	for i := range 100 {
		if err := w.Allow("a"); err != nil {
			t.Fatalf("write %d of the burst of 100: %v", i, err)
		}
	}
	err := w.Allow("a")
	if !errors.Is(err, ErrTooMany) {
		t.Fatalf("write 101: err = %v, want ErrTooMany", err)
	}
	if s, ok := RetryAfter(err); !ok || s != 1 {
		t.Fatalf("RetryAfter = %d, %v; want 1 s", s, ok)
	}
	if want := "too many requests: over AUTH_OPEN_WRITES_PER_SECOND for this client; retry in 1 s"; err.Error() != want {
		t.Fatalf("error = %q, want %q", err, want)
	}
	// Another client has its own bucket.
	if err := w.Allow("b"); err != nil {
		t.Fatalf("another client refused: %v", err)
	}
}

func TestWriteRateTableBounded(t *testing.T) {
	w := NewWriteRate(1, "X")
	for i := range 3 * ClientsTracked {
		_ = w.Allow(fmt.Sprint("client-", i)) // each one takes a token: none is full again
	}
	if n := w.Tracked(); n > ClientsTracked {
		t.Fatalf("%d clients tracked, want at most %d", n, ClientsTracked)
	}
	// Past the table, new clients share the overflow bucket (burst 2).
	refused := 0
	for i := range 10 {
		if w.Allow(fmt.Sprint("late-", i)) != nil {
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("clients past the table were never refused: the overflow bucket is not shared")
	}
}

func TestInFlight(t *testing.T) {
	f := NewInFlight(4, "AUTH_MAX_READS_IN_FLIGHT")
	var releases []func()
	for i := range 4 {
		r, err := f.Acquire("a")
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		releases = append(releases, r)
	}
	_, err := f.Acquire("a")
	if s, ok := RetryAfter(err); !errors.Is(err, ErrTooMany) || !ok || s != 1 {
		t.Fatalf("fifth request: err = %v (retry %d), want ErrTooMany with Retry-After 1", err, s)
	}
	if _, err := f.Acquire("b"); err != nil {
		t.Fatalf("another client refused: %v", err)
	}
	releases[0]()
	releases[0]() // twice is once
	if _, err := f.Acquire("a"); err != nil {
		t.Fatalf("after a release: %v", err)
	}
	if _, err := f.Acquire("a"); err == nil {
		t.Fatal("a second release of the same slot gave a slot back")
	}
	for _, r := range releases[1:] {
		r()
	}
	if n := f.Tracked(); n != 2 {
		t.Fatalf("tracked = %d, want 2 (a with one in flight, b)", n)
	}
}

func TestInFlightTableBounded(t *testing.T) {
	f := NewInFlight(1, "X")
	for i := range ClientsTracked {
		if _, err := f.Acquire(fmt.Sprint("c", i)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := f.Acquire("late-1")
	if err != nil {
		t.Fatalf("first client past the table: %v", err)
	}
	if _, err := f.Acquire("late-2"); !errors.Is(err, ErrTooMany) {
		t.Fatalf("second client past the table: %v, want the shared overflow refused", err)
	}
	r()
	if _, err := f.Acquire("late-2"); err != nil {
		t.Fatalf("overflow slot not given back: %v", err)
	}
	if n := f.Tracked(); n != ClientsTracked {
		t.Fatalf("tracked = %d, want %d", n, ClientsTracked)
	}
}

func TestBytes(t *testing.T) {
	b := NewBytes(100, "100 bytes of X at a time")
	if err := b.Take(60); err != nil {
		t.Fatal(err)
	}
	err := b.Take(41)
	if s, ok := RetryAfter(err); !errors.Is(err, ErrTooMany) || !ok || s != 1 {
		t.Fatalf("past the bound: %v (retry %d), want ErrTooMany with Retry-After 1", err, s)
	}
	if want := "too many requests: 100 bytes of X at a time; retry in 1 s"; err.Error() != want {
		t.Fatalf("error = %q, want %q", err, want)
	}
	if err := b.Take(40); err != nil {
		t.Fatalf("up to the bound: %v", err)
	}
	b.Give(60)
	if err := b.Take(60); err != nil || b.Used() != 100 {
		t.Fatalf("after giving back: %v, used %d", err, b.Used())
	}
}
