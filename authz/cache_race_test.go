package authz

import (
	"sync"
	"testing"
)

// Builds racing membership invalidations, evictions and flushes must never
// leave a nil entry (checks of that user would panic) nor an entry read
// before an invalidation that is still there after it.
func TestCacheStoreRacesInvalidation(t *testing.T) {
	cc := newClientCache(8)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	repeatUntil(stop, &wg, func() bool {
		cc.invalidateUser("u")
		cc.users.Delete("u") // as evict or flush would
		return true
	})
	repeatUntil(stop, &wg, func() bool {
		cc.lookup("u") // must not panic
		return true
	})
	for range 200_000 {
		tk := cc.ticket()
		cc.store("u", tk, []string{"r"}, []string{"p"})
	}
	close(stop)
	wg.Wait()
	cc.users.Range(func(u string, e *userEntry) bool {
		if e == nil {
			t.Fatalf("nil entry left for %q", u)
		}
		return true
	})
	// An invalidation after the ticket keeps the build out for good.
	tk := cc.ticket()
	cc.invalidateUser("v")
	cc.store("v", tk, nil, []string{"p"})
	if cc.lookup("v") != nil {
		t.Fatal("an entry read before an invalidation was published after it")
	}
}

// repeatUntil runs fn over and over in a goroutine counted by wg, until
// stop is closed or fn returns false.
func repeatUntil(stop <-chan struct{}, wg *sync.WaitGroup, fn func() bool) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if !fn() {
				return
			}
		}
	}()
}
