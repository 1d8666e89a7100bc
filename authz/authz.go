package authz

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/puzpuzpuz/xsync/v3"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/cache"
	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
)

// Authz is rolegate opened on one store: the library API per client, the
// decision cache, the REST API and the guards. Open it once per process;
// it is safe for concurrent use.
type Authz struct {
	cfg      Config
	db       *bun.DB
	log      *slog.Logger
	cipher   *cipher.Cipher // nil when encryption is off
	auditKey []byte         // keys the client fingerprints in audit records
	clients  *xsync.MapOf[string, *Client]
	host     *Client // the AUTH_CLIENT_KEY client; nil when unset
	login    *loginx.Service
	resolver middleware.Resolver
	mount    restMountState // where Mount put the routes, for the 404/405 handlers
	evicting sync.Mutex     // one sweep of client handles at a time
	checking sync.Mutex     // one revision check at a time
	// sqliteWriters queues this process's writes on SQLite; nil on
	// PostgreSQL, where writers of different clients run in parallel.
	sqliteWriters *sync.Mutex
	refusals      *refusalBudget // how many refusals the audit log may take
	memos         memoBudgetUse  // entries of all clients' codec memos
	cacheBudget   *cache.Budget  // entries of all clients' decision caches

	closed atomic.Bool
	// encryptedElsewhere: running without encryption, this process saw
	// another replica turn it on; writes are refused from then on.
	encryptedElsewhere atomic.Bool
	keyCheckAtOpen     bool            // running without encryption, the store had a key check value at Open
	bg                 context.Context // background work; cancelled by Close
	stop               context.CancelFunc
	wg                 sync.WaitGroup
	bgMu               sync.Mutex // orders goBackground against Close
}

// Open validates cfg, opens and migrates the store, checks the encryption
// key, and starts the cache's change watcher (and the login service when
// providers are configured). Any problem is one clear error; nothing is
// left running.
func Open(ctx context.Context, cfg Config) (*Authz, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("authz: bad configuration: %w", err)
	}
	if cfg.CacheMaxUsers == 0 {
		cfg.CacheMaxUsers = DefaultConfig().CacheMaxUsers
	}
	if cfg.MaxClients == 0 {
		cfg.MaxClients = DefaultConfig().MaxClients
	}
	if cfg.RevisionCheckInterval == 0 {
		cfg.RevisionCheckInterval = DefaultConfig().RevisionCheckInterval
	}
	if cfg.AuditRefusalsPerSecond == 0 {
		cfg.AuditRefusalsPerSecond = DefaultConfig().AuditRefusalsPerSecond
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	db, err := storage.Open(ctx, cfg.storageConfig())
	if err != nil {
		return nil, fmt.Errorf("authz: %w", err)
	}
	az := &Authz{cfg: cfg, db: db, log: log, clients: xsync.NewMapOf[string, *Client](),
		refusals: newRefusalBudget(cfg.AuditRefusalsPerSecond)}
	az.memos.max = memoBudget
	az.cacheBudget = cache.NewBudget(cfg.CacheMaxUsers)
	if !storage.IsPostgres(db) {
		az.sqliteWriters = &sync.Mutex{}
	}
	az.bg, az.stop = context.WithCancel(context.Background())
	if err := az.init(ctx); err != nil {
		az.closed.Store(true)
		az.stop()
		az.wg.Wait()
		db.Close()
		return nil, err
	}
	az.startWatcher(az.bg)
	return az, nil
}

func (az *Authz) init(ctx context.Context) error {
	if err := storage.Migrate(ctx, az.db); err != nil {
		return fmt.Errorf("authz: %w", err)
	}
	if az.cfg.EnableEncryption {
		c, err := cipher.New(az.cfg.EncryptionKey)
		if err != nil {
			return fmt.Errorf("authz: encryption: %w", err)
		}
		stored, err := storage.GetOrInitSetting(ctx, az.db, "cipher_check", func() (string, error) { return c.CheckValue(), nil })
		if err != nil {
			return fmt.Errorf("authz: %w", err)
		}
		if !hmac.Equal([]byte(stored), []byte(c.CheckValue())) {
			return errors.New("authz: AUTH_ENCRYPTION_KEY is not the key this database was encrypted with")
		}
		az.cipher = c
	} else if err := az.refuseEncryptedStore(ctx); err != nil {
		return err
	}
	key, err := storage.GetOrInitSetting(ctx, az.db, "audit_key", randomHex)
	if err != nil {
		return fmt.Errorf("authz: %w", err)
	}
	az.auditKey = []byte(key)
	if az.cfg.ClientKey != "" {
		if az.host, err = az.Client(az.cfg.ClientKey); err != nil {
			return fmt.Errorf("authz: AUTH_CLIENT_KEY: %w", err)
		}
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
	var errs []error
	if az.login != nil {
		errs = append(errs, az.login.Close())
	}
	errs = append(errs, az.db.Close())
	return errors.Join(errs...)
}

// DB is the store's Bun handle, for a host that wants its own tables in the
// same database.
func (az *Authz) DB() *bun.DB { return az.db }

// Client returns the library API of one client key: a UUID version 4 in any
// letter case (normalised to lower case: one namespace per key). The same
// key always returns the same handle, which shares one cache.
func (az *Authz) Client(clientKey string) (*Client, error) {
	key, err := middleware.ParseClientKey(clientKey)
	if err != nil {
		return nil, ErrInvalidClientKey
	}
	if c, ok := az.clients.Load(key); ok {
		c.touch()
		return c, nil
	}
	c, loaded := az.clients.LoadOrCompute(key, func() *Client { return az.newClient(key) })
	c.touch()
	if !loaded && az.clients.Size() > az.cfg.MaxClients {
		az.evictClients()
	}
	return c, nil
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

// refuseEncryptedStore stops a start without encryption on a store that
// holds encrypted values: reading on would show ciphertexts as names, and
// new names would be written in plain beside them. A store whose key check
// value was written but that holds nothing encrypted (encryption was
// tried, or is being turned on and nothing was written yet) starts.
func (az *Authz) refuseEncryptedStore(ctx context.Context) error {
	_, checked, err := storage.GetSetting(ctx, az.db, "cipher_check")
	if err != nil {
		return fmt.Errorf("authz: %w", err)
	}
	if !checked {
		return nil
	}
	az.keyCheckAtOpen = true
	encrypted, err := storage.HasEncryptedValues(ctx, az.db, cipher.Prefix)
	if err != nil {
		return fmt.Errorf("authz: %w", err)
	}
	if encrypted {
		return errors.New("authz: this database holds encrypted names; set AUTH_ENABLE_ENCRYPTION=true and its AUTH_ENCRYPTION_KEY")
	}
	az.log.Warn("starting without encryption on a store that has an encryption key check value but no encrypted data yet; a replica with encryption on writes encrypted names, after which this one will not start")
	return nil
}

// drop is what happens to a handle leaving the client table (or Authz
// closing): its cache stops caching, its memo gives back its entries.
func (c *Client) drop() {
	c.cache.Close()
	if m, ok := c.scope.Names.(*memoCodec); ok {
		m.release()
		// No revision check follows it any more, so it cannot learn of
		// plain names written elsewhere: look for both forms from now on.
		c.plain.pin()
	}
}

// HostClient is the client of AUTH_CLIENT_KEY, or nil when it is unset.
func (az *Authz) HostClient() *Client { return az.host }

func (az *Authz) newClient(key string) *Client {
	ns := storage.NamespaceOf(key)
	scope := storage.Scope{NS: ns}
	if az.cipher != nil {
		raw, _ := hex.DecodeString(ns)
		cc := newMemoCodec(az.cipher.ForClient(raw), &az.memos)
		scope.Names, scope.EncryptDescriptions = cc, az.cfg.EncryptDescriptions
	}
	c := &Client{az: az, scope: scope, fingerprint: az.fingerprint(ns)}
	c.cache = cache.New(storeLoader{c}, az.cacheBudget)
	if az.cipher != nil {
		c.scope.PlainNames = &c.plain.may
		c.suspectPlain()
	}
	return c
}

// fingerprint is the keyed digest that identifies a client in audit
// records: stable for one database, useless without its key.
func (az *Authz) fingerprint(ns string) string {
	m := hmac.New(sha256.New, az.auditKey)
	m.Write([]byte(ns))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

func randomHex() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}
