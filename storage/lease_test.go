package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// One holder at a time; the holder renews; an expired lease (its holder
// died) is taken over; a release frees it at once.
func TestLease(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		try := func(holder string, ttl time.Duration, want bool) {
			t.Helper()
			if ok, err := storage.TryLease(ctx, db, "test_lease", holder, ttl); err != nil || ok != want {
				t.Fatalf("TryLease(%s) = %v, %v; want %v", holder, ok, err, want)
			}
		}
		try("a", time.Minute, true)
		try("b", time.Minute, false)
		try("a", time.Minute, true) // renewal
		if _, err := storage.TryLease(ctx, db, "test_lease", "b", 0); err != nil {
			t.Fatal(err)
		}
		try("b", time.Minute, false) // b's release freed nothing
		if _, err := storage.TryLease(ctx, db, "test_lease", "a", 0); err != nil {
			t.Fatal(err)
		}
		try("b", -time.Second, true) // b takes it, already expired (as if b died)
		try("a", time.Minute, true)  // a takes over
		try("b", time.Minute, false)
		// Two contenders for an expired lease: one wins.
		if _, err := storage.TryLease(ctx, db, "test_lease", "a", 0); err != nil {
			t.Fatal(err)
		}
		wins := make(chan bool, 8)
		for i := range 8 {
			go func() {
				ok, err := storage.TryLease(ctx, db, "test_lease", string(rune('c'+i)), time.Minute)
				if err != nil {
					t.Error(err)
				}
				wins <- ok
			}()
		}
		n := 0
		for range 8 {
			if <-wins {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%d contenders took the lease at once; want 1", n)
		}
	})
}
