package authz

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/cache"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// configFor points a default config at a test database target.
func configFor(target storagetest.Target) Config {
	cfg := DefaultConfig()
	cfg.DatabaseType = target.Config.Type
	cfg.PostgreSQLURL = target.Config.PostgreSQLURL
	cfg.SQLitePath = target.Config.SQLitePath
	cfg.RevisionCheckInterval = 50 * time.Millisecond
	// Tests write and read as fast as they can in open mode; the open
	// mode's rate limits have tests of their own (openmode_test.go).
	cfg.OpenWritesPerSecond = 1_000_000
	cfg.MaxReadsInFlight = 1 << 20
	cfg.MaxReadsRunning = 1 << 20
	return cfg
}

// setCache replaces the client's decision cache (under the feed's lock,
// which the caller holds: the feed reads the cache under it).
func (c *Client) setCache(cc *cache.Cache) {
	c.cache = cc
	c.follow.Cache = cc
}

// openTarget opens rolegate on target, closed at cleanup; mod may adjust
// the config first.
func openTarget(t testing.TB, target storagetest.Target, mod func(*Config)) *Authz {
	t.Helper()
	cfg := configFor(target)
	if mod != nil {
		mod(&cfg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	az, err := Open(ctx, cfg)
	if err != nil {
		t.Fatalf("Open on %s: %v", target.Name, err)
	}
	t.Cleanup(func() { az.Close() })
	return az
}

// killListener terminates the PostgreSQL backend of the change listener of
// the connections named appName (application_name), waiting for it to be
// there: the listener connects in the background, and one reconnecting at
// the moment has no LISTEN backend to find.
func killListener(t *testing.T, db bun.IDB, appName string) {
	t.Helper()
	eventually(t, 10*time.Second, "the listener's backend terminated", func() bool {
		var killed int
		if err := db.NewRaw(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE application_name = ? AND query LIKE 'LISTEN%'`, appName).Scan(context.Background(), &killed); err != nil {
			t.Fatalf("terminating the listener backend: %v", err)
		}
		return killed > 0
	})
}

// freshTarget is a new, empty target of the same kind as target.
func freshTarget(t *testing.T, target storagetest.Target) storagetest.Target {
	t.Helper()
	if target.Config.Type == storage.TypePostgreSQL {
		return storagetest.PostgreSQL(t)
	}
	return storagetest.SQLite(t)
}

// forEachStore runs fn on SQLite and PostgreSQL, each with a fresh store.
func forEachStore(t *testing.T, fn func(t *testing.T, az *Authz)) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		fn(t, openTarget(t, target, nil))
	})
}

// forEachStoreEncrypted runs fn on SQLite and PostgreSQL, each with names
// stored plain and encrypted, on a fresh store every time.
func forEachStoreEncrypted(t *testing.T, fn func(t *testing.T, az *Authz, encrypted bool)) {
	eachEncryption(t, func(t *testing.T, target storagetest.Target, enc bool, encryption func(*Config)) {
		fn(t, openTarget(t, target, encryption), enc)
	})
}

// eachEncryption runs fn on SQLite and PostgreSQL, each with names stored
// plain and encrypted: encryption is the Config change that says which,
// for fn to open the store with.
func eachEncryption(t *testing.T, fn func(t *testing.T, target storagetest.Target, encrypted bool, encryption func(*Config))) {
	for _, enc := range []bool{false, true} {
		name := "plain"
		if enc {
			name = "encrypted"
		}
		t.Run(name, func(t *testing.T) {
			storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
				fn(t, target, enc, func(c *Config) {
					if enc {
						c.EnableEncryption = true
						c.EncryptionKey = "a test passphrase, long enough for any rule"
					}
				})
			})
		})
	}
}

func newKey() string { return uuid.NewString() }

func mustClient(t testing.TB, az *Authz, key string) *Client {
	t.Helper()
	c, err := az.Client(key)
	if err != nil {
		t.Fatalf("Client: %v", err)
	}
	return c
}

func mustHost(t testing.TB, az *Authz) *Client {
	t.Helper()
	c, err := az.HostClient()
	if err != nil {
		t.Fatalf("HostClient: %v", err)
	}
	return c
}

// countRows counts the rows of a table in one client's namespace, straight
// from the store.
func countRows(t testing.TB, az *Authz, c *Client, table string) int {
	t.Helper()
	var n int
	if err := az.db.NewRaw("SELECT count(*) FROM "+table+" WHERE ns = ?", c.scope.NS).Scan(context.Background(), &n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// assertBool fails the test unless a boolean result is want without error.
func assertBool(t testing.TB, name string, got bool, err error, want bool) {
	t.Helper()
	if err != nil || got != want {
		t.Fatalf("%s = %v, %v; want %v", name, got, err, want)
	}
}

// assertList fails the test unless a list result is exactly want (never
// nil: an empty list is [] in JSON), sorted, without error.
func assertList(t testing.TB, name string, got []string, err error, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if err != nil || got == nil || !slices.Equal(got, want) || !slices.IsSorted(got) {
		t.Fatalf("%s = %#v, %v; want %#v", name, got, err, want)
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

// auditSampler counts the audit table's records in the background, at
// every interval, and keeps the most it saw: a bound must hold at every
// moment, not only at the end.
type auditSampler struct {
	db      *bun.DB
	most    atomic.Int64
	samples atomic.Int64
	err     atomic.Pointer[error] // the first
	stop    chan struct{}
	wg      sync.WaitGroup
}

func sampleAudit(db *bun.DB, every time.Duration) *auditSampler {
	s := &auditSampler{db: db, stop: make(chan struct{})}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			select {
			case <-s.stop:
				return
			case <-time.After(every):
				s.sample()
			}
		}
	}()
	return s
}

// sample counts once, now.
func (s *auditSampler) sample() {
	var n int64
	if err := s.db.NewRaw("SELECT count(*) FROM rolegate_audit").Scan(context.Background(), &n); err != nil {
		s.err.CompareAndSwap(nil, &err)
		return
	}
	s.samples.Add(1)
	for {
		m := s.most.Load()
		if n <= m || s.most.CompareAndSwap(m, n) {
			return
		}
	}
}

// done stops the sampling, counts once more and returns the most seen and
// the number of samples.
func (s *auditSampler) done(t *testing.T) (most, samples int64) {
	t.Helper()
	close(s.stop)
	s.wg.Wait()
	s.sample()
	if err := s.err.Load(); err != nil {
		t.Fatalf("counting the audit records: %v", *err)
	}
	return s.most.Load(), s.samples.Load()
}
