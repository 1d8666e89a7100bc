package limits

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
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

// With every slot taken, the next free slot goes to the waiting client
// with the fewest running, whatever the order of arrival; a wait past the
// bound is refused, and a slot handed over is taken once.
func TestSharedIsFair(t *testing.T) {
	s := NewShared(2, time.Second, "2 at a time of all clients")
	bg := context.Background()
	heavy1, err := s.Acquire(bg, "heavy")
	if err != nil {
		t.Fatal(err)
	}
	heavy2, err := s.Acquire(bg, "heavy")
	if err != nil {
		t.Fatal(err)
	}
	order := make(chan string, 2)
	wait := func(client string) {
		release, err := s.Acquire(bg, client)
		if err != nil {
			t.Error(err)
			return
		}
		order <- client
		release()
	}
	go wait("heavy") // first in line, but its client has two running
	for {
		if _, waiting := s.Running(); waiting == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	go wait("light")
	for {
		if _, waiting := s.Running(); waiting == 2 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	heavy1()
	heavy1() // twice is once
	if got := <-order; got != "light" {
		t.Fatalf("the freed slot went to %s, want the client with none running", got)
	}
	if got := <-order; got != "heavy" {
		t.Fatalf("then %s", got)
	}
	heavy2()
	if running, waiting := s.Running(); running != 0 || waiting != 0 {
		t.Fatalf("after all released: %d running, %d waiting", running, waiting)
	}
}

func TestSharedWaitIsBounded(t *testing.T) {
	s := NewShared(1, 50*time.Millisecond, "1 at a time of all clients")
	bg := context.Background()
	release, _ := s.Acquire(bg, "a")
	start := time.Now()
	_, err := s.Acquire(bg, "b")
	if sec, ok := RetryAfter(err); !errors.Is(err, ErrTooMany) || !ok || sec != 1 {
		t.Fatalf("a wait past the bound: %v, want ErrTooMany with Retry-After 1", err)
	}
	if took := time.Since(start); took < 50*time.Millisecond || took > 2*time.Second {
		t.Fatalf("refused after %v, want about 50 ms", took)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := s.Acquire(ctx, "b"); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled wait: %v", err)
	}
	// Resume waits as long as it takes.
	go func() { time.Sleep(100 * time.Millisecond); release() }()
	r, err := s.Resume(bg, "b")
	if err != nil {
		t.Fatal(err)
	}
	r()
	if running, waiting := s.Running(); running != 0 || waiting != 0 {
		t.Fatalf("%d running, %d waiting", running, waiting)
	}
}

// Among waiters with as many running, the client that used the slots
// least lately goes first: a client of cheap requests is not queued
// behind one that keeps the slots busy, even while that one has nothing
// running at the moment.
func TestSharedPrefersTheLeastUse(t *testing.T) {
	s := NewShared(1, time.Second, "1 at a time of all clients")
	bg := context.Background()
	r, _ := s.Acquire(bg, "busy")
	time.Sleep(30 * time.Millisecond) // busy holds the slot a while
	r()
	other, _ := s.Acquire(bg, "third") // takes the slot; both wait now
	order := make(chan string, 2)
	for _, c := range []string{"busy", "light"} {
		go func() {
			release, err := s.Acquire(bg, c)
			if err != nil {
				t.Error(err)
				return
			}
			order <- c
			release()
		}()
		for {
			if _, waiting := s.Running(); (c == "busy" && waiting == 1) || (c == "light" && waiting == 2) {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	other()
	if got := <-order; got != "light" {
		t.Fatalf("the freed slot went to %s, want the client that used it least", got)
	}
	<-order
}

// With the slot held by a client that has used it a while, a lighter
// client runs at once beside it, in the light lane; one at a time, and
// its time counts as use. A client new to the slots holding one closes the
// lane: fresh keys do not run together through it.
func TestSharedLightLane(t *testing.T) {
	s := NewShared(1, 50*time.Millisecond, "1 at a time of all clients")
	bg := context.Background()
	r, _ := s.Acquire(bg, "busy")
	time.Sleep(30 * time.Millisecond) // busy holds the slot a while
	r()
	busy, _ := s.Acquire(bg, "busy") // and holds it again
	start := time.Now()
	light, err := s.Acquire(bg, "light")
	if err != nil || time.Since(start) > 20*time.Millisecond {
		t.Fatalf("a light client beside a busy one: %v after %v, want a slot at once", err, time.Since(start))
	}
	if running, waiting := s.Running(); running != 2 || waiting != 0 {
		t.Fatalf("with the lane taken: %d running, %d waiting; want 2, 0", running, waiting)
	}
	// The lane is taken: another light client waits its turn, here past
	// the bound.
	if _, err := s.Acquire(bg, "light2"); !errors.Is(err, ErrTooMany) {
		t.Fatalf("a second light client with the lane taken: %v, want ErrTooMany", err)
	}
	time.Sleep(40 * time.Millisecond) // light holds the lane past busy's use
	light()
	// light's time in the lane counted: it is no lighter than busy now.
	if _, err := s.Acquire(bg, "light"); !errors.Is(err, ErrTooMany) {
		t.Fatalf("light again after using the lane more than busy used its slot: %v, want ErrTooMany", err)
	}
	busy()
	if running, waiting := s.Running(); running != 0 || waiting != 0 {
		t.Fatalf("after all released: %d running, %d waiting", running, waiting)
	}

	// A client with no use yet holds the slot: no lane.
	fresh, _ := s.Acquire(bg, "fresh")
	if _, err := s.Acquire(bg, "other"); !errors.Is(err, ErrTooMany) {
		t.Fatalf("beside a client new to the slots: %v, want ErrTooMany (no lane)", err)
	}
	fresh()
}

// A client of short requests one after another may have used the slots
// more than a client of long ones; its requests are still short, and one
// of them does not wait for a long one.
func TestSharedLightLaneShortRequests(t *testing.T) {
	s := NewShared(1, 50*time.Millisecond, "1 at a time of all clients")
	bg := context.Background()
	r, _ := s.Acquire(bg, "long")
	time.Sleep(60 * time.Millisecond)
	r()
	start := time.Now()
	for range 80 {
		r, _ := s.Acquire(bg, "short")
		time.Sleep(time.Millisecond)
		r()
	}
	if took := time.Since(start); took > 600*time.Millisecond {
		t.Skipf("80 requests of 1 ms took %v: the machine is too loaded for their length to be told from the long one's", took)
	}
	long, _ := s.Acquire(bg, "long")
	defer long()
	if _, err := s.Acquire(bg, "short"); err != nil {
		t.Fatalf("short requests beside a long one, their client's use above its: %v, want a slot at once", err)
	}
}

// AcquireWait hands a client's slot that ends to its waiter, and refuses
// after the wait when none ends; other clients are not held back.
func TestInFlightWait(t *testing.T) {
	f := NewInFlight(1, "X")
	bg := context.Background()
	r, err := f.AcquireWait(bg, "a", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := f.AcquireWait(bg, "a", 50*time.Millisecond); !errors.Is(err, ErrTooMany) || time.Since(start) < 50*time.Millisecond {
		t.Fatalf("no slot ended: %v after %v, want a refusal after the wait", err, time.Since(start))
	}
	if r2, err := f.AcquireWait(bg, "b", 0); err != nil {
		t.Fatalf("another client: %v", err)
	} else {
		r2()
	}
	go func() { time.Sleep(30 * time.Millisecond); r() }()
	r3, err := f.AcquireWait(bg, "a", time.Second)
	if err != nil {
		t.Fatalf("a slot ended within the wait: %v", err)
	}
	r3()
	if n := f.Tracked(); n != 0 {
		t.Fatalf("%d clients tracked after all released", n)
	}
}
