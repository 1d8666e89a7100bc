package authz

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/puzpuzpuz/xsync/v3"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/rolegate/rolegate/authz/internal/audit"
	"github.com/rolegate/rolegate/authz/internal/cache"
	"github.com/rolegate/rolegate/authz/internal/feed"
	"github.com/rolegate/rolegate/authz/internal/keyring"
	"github.com/rolegate/rolegate/authz/internal/limits"
	"github.com/rolegate/rolegate/loginx/loginapi"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// Authz is rolegate opened on one store: the library API per client, the
// decision cache, the REST API and the guards. Open it once per process;
// it is safe for concurrent use.
type Authz struct {
	cfg      Config
	db       *bun.DB
	ownsDB   bool // opened by Open (closed by Close), not handed in to OpenDB
	migrated int  // migrations Open applied, for the startup line
	// feed keeps the caches right when other processes write (see
	// authz/internal/feed); the clients' handles are its followers.
	feed *feed.Feed
	// reader routes the clients' reads (cache fills, lists) between the
	// primary and a read replica, replica (nil without one; see
	// standby.go); replicaNote describes it for the startup line.
	reader      *feed.Reader
	replica     *bun.DB
	replicaNote string
	log         *slog.Logger
	keys        *keyring.Keys // nil when encryption is off
	auditKey    []byte        // keys the client fingerprints in audit records
	auditIDs    *audit.IDs    // the audit records' ids as clients see them
	clients     *xsync.MapOf[string, *Client]
	host        *Client // the AUTH_CLIENT_KEY client; nil when unset
	login       loginapi.Login
	resolver    middleware.Resolver
	// noResolver: neither Config.Resolver nor a login provider is set, so
	// every guarded request is 401; the first guard built says so.
	noResolver   bool
	warnedNoUser atomic.Bool
	mount        restMountState // where Mount put the routes, for the 404/405 handlers
	evicting     sync.Mutex     // one sweep of client handles at a time
	// sqliteWriters queues this process's writes on a store of one writer
	// at a time (SQLite); nil where writers of different clients run in
	// parallel (PostgreSQL).
	sqliteWriters *sync.Mutex
	refusals      *audit.RefusalBudget // how many refusals the audit log may take
	pruner        *audit.Pruner        // the audit retention; Wrote after each audit insert
	admins        adminKeys            // the closed admin plane's keys; nil in open mode
	writeRate     *limits.WriteRate    // open mode: writes per client and second; nil otherwise
	readGate      *limits.InFlight     // open mode: store-reading REST requests in flight per client; nil otherwise
	readsAll      *limits.Shared       // open mode: store-reading REST requests of all clients running; nil otherwise
	batchGate     *limits.InFlight     // open mode: batches in flight per client (one); nil otherwise
	batchesAll    *limits.InFlight     // open mode: batches running of all clients (one entry); nil otherwise
	batchBytes    *limits.Bytes        // open mode: batch bodies held of all clients; nil otherwise
	checkBytes    *limits.Bytes        // open mode: POST /api/check bodies held of all clients; nil otherwise
	proxies       *middleware.TrustedProxies
	cacheBudget   *cache.Budget // entries of all clients' decision caches
	metrics       *meters       // nil: no metrics (see metrics.go)
	decisions     decisionLog   // the guards' decision log and audit
	tracing       *tracing      // nil without Config.TracerProvider (see tracing.go)
	ping          pingState     // GET /ping's probe and its cached result (see ping.go)
	// keyBehind: a write found the store encrypted under a key this process
	// has not (storage.ErrKeyMismatch). Its names would be plain text (or
	// under the old key) in the store, so refusals it records from then on
	// leave them out; it only ends with a restart under the store's key.
	keyBehind atomic.Bool

	closed atomic.Bool
	bg     context.Context // background work; cancelled by Close
	stop   context.CancelFunc
	wg     sync.WaitGroup
	bgMu   sync.Mutex // orders goBackground against Close
}

// Open validates cfg, opens and migrates the store, checks the encryption
// key, and starts the cache's change feed (and the login service when
// providers are configured). On PostgreSQL it returns once the change
// listener is live (or its first attempt failed; it keeps retrying). One
// Info line names the store, the migrations applied and the listener's
// state. Any problem is one clear error; nothing is left running.
//
// The SQLite default needs a SQLite driver linked: the embedded one
// (import _ "github.com/rolegate/rolegate/authz/sqlite") or the host's own
// (modernc.org/sqlite, or github.com/mattn/go-sqlite3 as gorm's SQLite
// driver links), each opened with foreign keys on in its own spelling.
// Without one, Open says so (storage.ErrNoSQLiteDriver).
func Open(ctx context.Context, cfg Config) (*Authz, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	db, err := storage.Open(ctx, cfg.storageConfig())
	if err != nil {
		return nil, fmt.Errorf("authz: %w", err)
	}
	return open(ctx, cfg, db, true)
}

// OpenDB is Open on the host's own database handle, SQLite or PostgreSQL,
// instead of one opened from cfg's database settings (which are ignored).
// rolegate's tables keep their rolegate_ prefix and its migrations their
// own table and lock, so they live beside the host's own tables and
// migrations. Close leaves db open: it is the host's. OpenDB links no
// database driver: the handle's is the host's.
//
// A SQLite handle must have foreign keys on for every connection of its
// pool, which OpenDB checks on several at once: _pragma=foreign_keys(1) in
// the DSN with modernc.org/sqlite, _foreign_keys=1 with
// github.com/mattn/go-sqlite3 (gorm's SQLite driver), or a connection hook;
// a PRAGMA run once holds on one connection only and is refused. WAL and a
// busy timeout are advisable.
func OpenDB(ctx context.Context, db *bun.DB, cfg Config) (*Authz, error) {
	if db == nil {
		return nil, errors.New("authz: OpenDB: nil *bun.DB")
	}
	cfg = cfg.withDefaults()
	// The database settings are ignored here, so they are not checked.
	cfg.DatabaseType, cfg.DatabaseURL, cfg.PostgreSQLURL = "", "", ""
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	switch db.Dialect().Name() {
	case dialect.PG:
	case dialect.SQLite:
		if err := storage.CheckForeignKeys(ctx, db); err != nil {
			return nil, fmt.Errorf("authz: OpenDB: %w", err)
		}
	default:
		return nil, fmt.Errorf("authz: OpenDB: unsupported dialect %s (use SQLite or PostgreSQL)", db.Dialect().Name())
	}
	if err := db.PingContext(ctx); err != nil {
		return nil, fmt.Errorf("authz: OpenDB: %w", storage.Classify(err))
	}
	return open(ctx, cfg, db, false)
}

// open is the part of Open after the store is reachable; ownsDB says
// whether Close (and a failed open) closes db.
func open(ctx context.Context, cfg Config, db *bun.DB, ownsDB bool) (*Authz, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	warnUnknownVariables(log, cfg.unknownVars)
	proxies, _ := middleware.ParseTrustedProxies(cfg.TrustedProxies) // Validate checked them
	if cfg.TracerProvider != nil {
		db = storage.Traced(db, cfg.TracerProvider) // a copy: a host's handle keeps no hook of ours
	}
	az := &Authz{cfg: cfg, db: db, ownsDB: ownsDB, log: log, clients: xsync.NewMapOf[string, *Client](),
		refusals: audit.NewRefusalBudget(cfg.AuditRefusalsPerSecond), admins: newAdminKeys(cfg), proxies: proxies,
		tracing: newTracing(cfg)}
	az.cacheBudget = cache.NewBudget(cfg.CacheMaxUsers, int64(cfg.CacheMaxBytes))
	if az.open() {
		az.writeRate = limits.NewWriteRate(cfg.OpenWritesPerSecond, "AUTH_OPEN_WRITES_PER_SECOND")
		az.readGate = limits.NewInFlight(cfg.MaxReadsInFlight, "AUTH_MAX_READS_IN_FLIGHT")
		az.readsAll = limits.NewShared(cfg.readsRunning(), time.Second,
			fmt.Sprintf("%d store-reading requests at a time of all clients in open mode (AUTH_MAX_READS_RUNNING)", cfg.readsRunning()))
		az.batchGate = limits.NewInFlightWhy(1, "one batch at a time per client in open mode")
		az.batchesAll = limits.NewInFlightWhy(maxOpenBatches, fmt.Sprintf("%d batches at a time of all clients in open mode", maxOpenBatches))
		az.batchBytes = limits.NewBytes(maxBatchBodyBytesHeld, fmt.Sprintf("%d MiB of batch bodies at a time of all clients in open mode", maxBatchBodyBytesHeld>>20))
		az.checkBytes = limits.NewBytes(maxCheckBodyBytesHeld, fmt.Sprintf("%d MiB of check bodies at a time of all clients in open mode", maxCheckBodyBytesHeld>>20))
	}
	if storage.Has(db, storage.SingleWriter) {
		az.sqliteWriters = &sync.Mutex{}
	}
	az.feed = feed.New(feed.Config{DB: db, Followers: az.followers, Interval: cfg.RevisionCheckInterval,
		Liveness: cfg.LivenessTimeout, Notifier: feed.NewNotifier(db, cfg.listenerQuiet, cfg.LivenessTimeout), Log: log})
	if err := az.openReader(ctx); err != nil {
		if ownsDB {
			db.Close()
		}
		return nil, err
	}
	az.bg, az.stop = context.WithCancel(context.Background())
	az.pruner = &audit.Pruner{DB: db, Log: log, Retention: cfg.AuditRetention, MaxRecords: cfg.AuditMaxRecords,
		Every: cfg.auditPruneEvery, Writers: az.sqliteWriters}
	az.decisions = newDecisionLog(cfg)
	if cfg.Observer != nil || cfg.EnableMetrics {
		m, err := newMetrics(cfg, az)
		if err != nil {
			az.stop()
			az.closeReplica()
			if ownsDB {
				db.Close()
			}
			return nil, err
		}
		az.metrics = m
		az.feed.Observe(m.o)
	}
	if err := az.init(ctx); err != nil {
		az.metrics.unregister()
		az.closed.Store(true)
		az.stop()
		az.wg.Wait()
		az.closeReplica()
		if ownsDB {
			db.Close()
		}
		return nil, err
	}
	// The feed keeps every client's cache right from here on: a periodic
	// revision check, and where the store announces writes, a listener.
	az.goBackground(az.feed.Poll)
	if az.feed.Listens() {
		az.goBackground(az.feed.Listen)
	}
	az.goBackground(az.pruner.Run)
	az.goBackground((&feed.Retention{DB: az.db, Keep: az.cfg.ChangesRetention, Every: az.cfg.changesPruneEvery,
		Writers: az.sqliteWriters, Log: az.log}).Run)
	az.startExpiry()
	if az.open() {
		log.Warn(openModeWarning)
	}
	if proxies.Everyone() {
		log.Warn("AUTH_TRUSTED_PROXIES trusts every address: any client can set the address the audit and the login throttle see with X-Forwarded-For; list only your proxies")
	}
	az.logStartup(ctx)
	return az, nil
}

func (az *Authz) init(ctx context.Context) error {
	n, err := storage.Migrate(ctx, az.db)
	if err != nil {
		return fmt.Errorf("authz: %w", err)
	}
	az.migrated = n
	// Before encryption: a conversion maps audit records' fingerprints
	// back to namespaces.
	key, err := storage.GetOrInitSetting(ctx, az.db, "audit_key", randomHex)
	if err != nil {
		return fmt.Errorf("authz: %w", err)
	}
	az.auditKey = []byte(key)
	az.auditIDs = audit.NewIDs(az.auditKey)
	if az.cfg.EnableEncryption {
		kcfg := keyring.Config{Key: az.cfg.EncryptionKey, Previous: az.cfg.EncryptionKeyPrevious,
			EncryptDescriptions: az.cfg.EncryptDescriptions}
		if az.keys, err = keyring.Open(ctx, az.db, kcfg, az.log, az.goBackground, az.fingerprint); err != nil {
			return err
		}
	} else if err := keyring.RefuseEncryptedStore(ctx, az.db); err != nil {
		return err
	}
	if az.cfg.ClientKey != "" {
		if az.host, err = az.Client(az.cfg.ClientKey); err != nil {
			return fmt.Errorf("authz: AUTH_CLIENT_KEY: %w", err)
		}
	}
	if err := az.initDefaultRole(ctx); err != nil {
		return fmt.Errorf("authz: %w", err)
	}
	return az.initLogin(ctx)
}

// Close stops the watcher and the login service and closes the store.
func (az *Authz) Close() error {
	az.bgMu.Lock() // no background work starts after this
	first := az.closed.CompareAndSwap(false, true)
	az.bgMu.Unlock()
	if !first {
		return nil
	}
	az.stop()
	az.wg.Wait()
	// Nothing keeps the caches right from here on: a host still draining
	// requests gets ErrClosed (503), never an answer nobody can vouch for.
	az.clients.Range(func(_ string, c *Client) bool {
		c.drop()
		return true
	})
	az.metrics.unregister()
	var errs []error
	if az.login != nil {
		errs = append(errs, az.login.Close())
	}
	errs = append(errs, az.closeReplica())
	if az.ownsDB {
		errs = append(errs, az.db.Close())
	}
	return errors.Join(errs...)
}

// DB is the store's Bun handle, for a host that wants its own tables in the
// same database. With Config.TracerProvider set, its queries made inside a
// span are spans too (see storage.Traced).
func (az *Authz) DB() *bun.DB { return az.db }

// Client returns the library API of one client key: a UUID version 4 in any
// letter case (normalised to lower case: one namespace per key). The same
// key always returns the same handle, which shares one cache.
//
// The library API is the host's own code, so it takes any key, also when
// admin keys (AUTH_CLIENT_KEY, AUTH_CLIENT_KEYS) close the REST API to
// every other key: it runs with the host's access to the database anyway.
// In open mode its writes count against the same quotas as the REST API's.
func (az *Authz) Client(clientKey string) (*Client, error) {
	key, err := middleware.ParseClientKey(clientKey)
	if err != nil {
		return nil, ErrInvalidClientKey
	}
	return az.client(key), nil
}

// client is Client for a key ParseClientKey has returned (as
// ClientKeyAuth hands it to the REST API): not parsed again.
func (az *Authz) client(key string) *Client {
	if c, ok := az.clients.Load(key); ok {
		c.touch()
		return c
	}
	c, loaded := az.clients.LoadOrCompute(key, func() *Client { return az.newClient(key) })
	c.touch()
	if !loaded && az.clients.Size() > az.cfg.MaxClients {
		az.evictClients()
	}
	return c
}

// evictClients drops the least recently used client handles down to 90%
// of MaxClients, so that requests with ever new random keys (any UUID v4
// is a valid key) cannot grow memory without bound. A dropped handle that
// the host still holds stays correct: it caches nothing and reads the
// store on every check.
func (az *Authz) evictClients() {
	if !az.evicting.TryLock() {
		return
	}
	defer az.evicting.Unlock()
	sweepOldest(az.clients, az.cfg.MaxClients*9/10,
		func(c *Client) int64 { return c.used.Load() },
		func(c *Client) bool { return c == az.host },
		func(c *Client) { c.drop() })
}

// drop is what happens to a handle leaving the client table (or Authz
// closing): its cache stops caching, its memo gives back its entries.
func (c *Client) drop() {
	c.cache.Close()
	keyring.Release(c.scope)
}

// HostClient is the client of the host's own key (Config.ClientKey,
// AUTH_CLIENT_KEY); ErrNoClientKey when none is configured.
func (az *Authz) HostClient() (*Client, error) {
	if az.host == nil {
		return nil, ErrNoClientKey
	}
	return az.host, nil
}

func (az *Authz) newClient(key string) *Client {
	ns := storage.NamespaceOf(key)
	scope := az.keys.Scope(ns)
	scope.MaxInheritanceDepth, scope.MaxRoleAncestors = az.cfg.MaxInheritanceDepth, az.cfg.MaxRoleAncestors
	scope.Now = az.cfg.clock.Now
	c := &Client{az: az, scope: scope, fingerprint: az.fingerprint(ns),
		strict: az.cfg.Consistency == ConsistencyStrict, metrics: az.metrics,
		plain: az.cfg.Consistency != ConsistencyStrict && az.metrics == nil}
	// The cache's miss path is the cache's own: the store read through
	// storeLoader, behind a gate that refuses once the Authz is closed,
	// in this client's tracing and metrics layers.
	c.cache = cache.NewWith(storeLoader{c}, az.cacheBudget, cache.Options{
		Clock: az.cfg.clock, Admit: az.admitMiss, Layers: c.missLayers(), Renew: true,
	})
	c.follow = &feed.Follower{Scope: scope, Client: c.fingerprint, Cache: c.cache}
	return c
}

// admitMiss is the gate before every cache miss: a closed Authz reads no
// store (ErrClosed).
func (az *Authz) admitMiss() error {
	if az.closed.Load() {
		return ErrClosed
	}
	return nil
}

// followers yields the feed's followers: every client handle.
func (az *Authz) followers(yield func(*feed.Follower) bool) {
	az.clients.Range(func(_ string, c *Client) bool { return yield(c.follow) })
}

// fingerprint is the keyed digest that identifies a client in audit
// records: stable for one database, useless without its key.
func (az *Authz) fingerprint(ns string) string {
	return storage.AuditFingerprint(az.auditKey, ns)
}

func randomHex() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// goBackground runs fn in a goroutine that Close waits for, unless Authz
// is closed.
func (az *Authz) goBackground(fn func(ctx context.Context)) {
	az.bgMu.Lock()
	defer az.bgMu.Unlock()
	if az.closed.Load() {
		return
	}
	az.wg.Add(1)
	go func() {
		defer az.wg.Done()
		fn(az.bg)
	}()
}

// logStartup writes the one line an operator needs to see that rolegate
// opened the store they meant: which store (never a password), how many
// migrations this start applied, and whether the PostgreSQL change
// listener is live. It waits for the listener's first attempt, so that
// "live" is true when Open returns.
func (az *Authz) logStartup(ctx context.Context) {
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	store := storage.Describe(dctx, az.db)
	cancel()
	listener := "none (SQLite: one process, revision checks only)"
	if first := az.feed.FirstOutcome(); first != nil {
		// Listen itself gives up after 10 s; the margin covers scheduling.
		select {
		case err := <-first:
			if err == nil {
				listener = "live"
			} else {
				listener = "not live yet, retrying: " + storage.Classify(err).Error()
			}
		case <-ctx.Done():
			listener = "not live yet (Open's context ended first)"
		case <-time.After(12 * time.Second):
			listener = "not live yet, retrying"
		}
	}
	attrs := []any{"store", store, "migrations_applied", az.migrated, "listener", listener}
	if az.replicaNote != "" {
		attrs = append(attrs, "read_replica", az.replicaNote)
	}
	az.log.Info("rolegate opened", attrs...)
}

// sweepOldest removes from m the least recently used values (by age, older
// first) until at most keep remain, calling drop on each removed one.
// Values for which pinned is true are never removed. Both the user cache
// and the client table bound themselves with it.
func sweepOldest[V any](m *xsync.MapOf[string, V], keep int, age func(V) int64, pinned func(V) bool, drop func(V)) {
	type aged struct {
		key string
		v   V
		age int64
	}
	all := make([]aged, 0, m.Size())
	m.Range(func(k string, v V) bool {
		if pinned == nil || !pinned(v) {
			all = append(all, aged{k, v, age(v)})
		}
		return true
	})
	if len(all) <= keep {
		return
	}
	slices.SortFunc(all, func(a, b aged) int { return cmp.Compare(a.age, b.age) })
	for _, a := range all[:len(all)-keep] {
		m.Delete(a.key)
		if drop != nil {
			drop(a.v)
		}
	}
}
