package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/driver/pgdriver"
)

// Config says which database to open.
type Config struct {
	// Type is TypeSQLite or TypePostgreSQL; empty means SQLite.
	Type string
	// URL overrides everything else; its scheme decides the dialect
	// (postgres://, postgresql://, sqlite:// or file:).
	URL string
	// PostgreSQLURL is used when Type is TypePostgreSQL and URL is empty.
	PostgreSQLURL string
	// SQLitePath is the SQLite file when Type is SQLite and URL is empty;
	// a leading ~ is the home folder. The parent folder is created.
	SQLitePath string
	// ConnectTimeout bounds the first ping; zero means 5 seconds.
	ConnectTimeout time.Duration
	// PostgreSQLConnParams are session parameters set on every PostgreSQL
	// connection (tests use search_path to get a schema of their own).
	PostgreSQLConnParams map[string]any
}

// Open opens and pings the database the config names. It does not migrate:
// call Migrate after it. An unreachable database is an error wrapping
// ErrUnavailable.
func Open(ctx context.Context, cfg Config) (*bun.DB, error) {
	kind, target, err := resolve(cfg)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	var db *bun.DB
	switch kind {
	case TypePostgreSQL:
		db, err = openPostgres(target, cfg.PostgreSQLConnParams)
	default:
		db, err = openSQLite(target)
	}
	if err != nil {
		return nil, err
	}
	timeout := cfg.ConnectTimeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	pingCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := ping(pingCtx, db); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("storage: cannot reach the %s database: %w", kind, Classify(err))
	}
	return db, nil
}

// ping checks the store, waiting out SQLite's "database is locked" at
// startup: when several processes open a new file at once, one of them
// switches it to WAL while the others connect, and SQLite can answer
// SQLITE_BUSY without waiting for its busy timeout.
func ping(ctx context.Context, db *bun.DB) error {
	for {
		err := db.PingContext(ctx)
		if err == nil || IsPostgres(db) || !isSQLiteBusy(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(10+rand.IntN(40)) * time.Millisecond):
		}
	}
}

func isSQLiteBusy(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked")
}

// Problems reports every way the config fails to name a database, without
// opening anything: an unknown type (even when a URL overrides it), a URL
// that does not parse, has an unsupported scheme or names no SQLite file,
// PostgreSQL without a URL. A host's configuration check lists them with
// its other problems; Open refuses the first.
func (c Config) Problems() []error {
	var errs []error
	if !knownType(c.Type) {
		errs = append(errs, unknownType(c.Type))
	}
	if _, _, err := resolve(c); err != nil && (knownType(c.Type) || c.URL != "") {
		errs = append(errs, err)
	}
	return errs
}

// knownType says whether t names a database type: sqlite (also sqlite3),
// postgresql (also postgres), in any letter case, or empty for SQLite.
func knownType(t string) bool {
	switch strings.ToLower(t) {
	case "", TypeSQLite, "sqlite3", TypePostgreSQL, "postgres":
		return true
	}
	return false
}

func unknownType(t string) error {
	return fmt.Errorf("AUTH_DATABASE_TYPE=%q is unknown (use sqlite or postgresql)", t)
}

// resolve turns the config into a dialect and a driver target. Its errors
// name the setting at fault, with no package prefix (Open adds one).
func resolve(cfg Config) (kind, target string, err error) {
	if cfg.URL != "" {
		u, err := url.Parse(cfg.URL)
		if err != nil {
			return "", "", errors.New("AUTH_DATABASE_URL is not a valid URL")
		}
		switch strings.ToLower(u.Scheme) {
		case "postgres", "postgresql":
			return TypePostgreSQL, cfg.URL, nil
		case "sqlite", "sqlite3", "file":
			// The path is everything after the scheme (so sqlite://rel/x.db
			// is relative, sqlite:///abs/x.db absolute), without a query or
			// fragment (rolegate sets its own parameters), percent-decoded.
			p := cfg.URL[len(u.Scheme)+1:]
			if strings.HasPrefix(p, "//") {
				p = p[2:]
			}
			if i := strings.IndexAny(p, "?#"); i >= 0 {
				p = p[:i]
			}
			p, err := url.PathUnescape(p)
			if err != nil || p == "" {
				return "", "", errors.New("AUTH_DATABASE_URL does not name a SQLite file")
			}
			return TypeSQLite, p, nil
		default:
			return "", "", fmt.Errorf("AUTH_DATABASE_URL has unsupported scheme %q (use postgres://, sqlite:// or file:)", u.Scheme)
		}
	}
	switch strings.ToLower(cfg.Type) {
	case "", TypeSQLite, "sqlite3":
		p := cfg.SQLitePath
		if p == "" {
			p = DefaultSQLitePath
		}
		return TypeSQLite, p, nil
	case TypePostgreSQL, "postgres":
		if cfg.PostgreSQLURL == "" {
			return "", "", errors.New("AUTH_DATABASE_TYPE is postgresql but neither AUTH_POSTGRESQL_URL nor AUTH_DATABASE_URL is set")
		}
		if _, err := url.Parse(cfg.PostgreSQLURL); err != nil {
			return "", "", errors.New("AUTH_POSTGRESQL_URL is not a valid URL")
		}
		return TypePostgreSQL, cfg.PostgreSQLURL, nil
	default:
		return "", "", unknownType(cfg.Type)
	}
}

func openPostgres(dsn string, params map[string]any, extra ...pgdriver.Option) (*bun.DB, error) {
	if _, err := url.Parse(dsn); err != nil {
		return nil, errors.New("storage: the PostgreSQL URL is not a valid URL")
	}
	opts := []pgdriver.Option{pgdriver.WithApplicationName("rolegate")}
	// The URL comes after the defaults, so its application_name and
	// timeouts win.
	opts = append(opts, pgdriver.WithDialTimeout(3*time.Second))
	opts = append(opts, extra...)
	opts = append(opts, pgdriver.WithDSN(dsn))
	if len(params) > 0 {
		opts = append(opts, pgdriver.WithConnParams(params))
	}
	connector, err := newPGConnector(opts)
	if err != nil {
		return nil, err
	}
	sqldb := sql.OpenDB(connector)
	sqldb.SetMaxOpenConns(16)
	sqldb.SetMaxIdleConns(16)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	return bun.NewDB(sqldb, pgdialect.New()), nil
}

// newPGConnector builds the driver's connector. pgdriver panics on a URL
// it cannot use (an unknown sslmode, a missing certificate file); that is
// bad configuration, reported as one error line, not a crash.
func newPGConnector(opts []pgdriver.Option) (c *pgdriver.Connector, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("storage: the PostgreSQL URL is not usable: %v", p)
		}
	}()
	return pgdriver.NewConnector(opts...), nil
}

func openSQLite(path string) (*bun.DB, error) {
	if path == ":memory:" {
		return nil, errors.New("storage: an in-memory SQLite database is not supported (each connection would see its own); use a file")
	}
	expanded, err := expandHome(path)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(expanded), 0o700); err != nil {
		return nil, fmt.Errorf("storage: cannot create the folder of the SQLite file: %w", err)
	}
	if err := createPrivate(expanded); err != nil {
		return nil, err
	}
	// Foreign keys on every connection; WAL lets readers run beside the
	// writer; busy_timeout makes writers queue instead of failing;
	// _txlock=immediate takes the write lock at BEGIN so two writers never
	// deadlock upgrading a read lock (see sqliteDrivers).
	name, query, err := sqliteDriver()
	if err != nil {
		return nil, err
	}
	sqldb, err := sql.Open(name, "file:"+sqliteURIPath.Replace(expanded)+"?"+query)
	if err != nil {
		return nil, fmt.Errorf("storage: open SQLite: %w", err)
	}
	sqldb.SetMaxOpenConns(8)
	sqldb.SetMaxIdleConns(8)
	return bun.NewDB(sqldb, sqlitedialect.New()), nil
}

// createPrivate creates the SQLite file readable by its owner only, unless
// it exists. SQLite would create it 0644 (less the umask), and the store
// holds what must stay private (the audit key, login sessions); SQLite
// gives the -wal and -shm files it creates the mode of the database file.
// An existing file keeps the mode its operator gave it.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("storage: cannot create the SQLite file: %w", err)
	}
	return f.Close()
}

// sqliteURIPath escapes what a file: URI would otherwise read as the
// start of its query or fragment, and the escape character itself, so any
// file name works.
var sqliteURIPath = strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23")

func expandHome(p string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("storage: cannot expand ~ in the SQLite path: %w", err)
		}
		return filepath.Join(home, strings.TrimPrefix(p, "~")), nil
	}
	return p, nil
}

// IsPostgres reports whether db talks to PostgreSQL.
func IsPostgres(db bun.IDB) bool {
	return db.Dialect().Name() == dialect.PG
}
