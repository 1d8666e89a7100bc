package authz

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/feed"
	"github.com/rolegate/rolegate/storage"
)

// A read replica (Config.PostgreSQLReadURL, AUTH_POSTGRESQL_READ_URL):
// cache fills and list reads go to a hot standby once it has replayed the
// revision they need, else to the primary (feed.Reader decides); writes,
// migrations, locks, revision reads and LISTEN stay on the primary. This
// file opens the standby and routes the Client's reads through the
// reader.

// openReader opens cfg's read replica, if any, and returns the reader of
// the clients' rows over db and it (replica nil: every read on db).
func (az *Authz) openReader(ctx context.Context) error {
	cfg := az.cfg
	rc := feed.ReaderConfig{Primary: az.db, Wait: cfg.PostgreSQLReadWait, Bound: cfg.LivenessTimeout, Feed: az.feed, Log: az.log}
	if cfg.PostgreSQLReadURL == "" {
		az.reader = feed.NewReader(rc)
		return nil
	}
	replica, err := storage.OpenReplica(cfg.PostgreSQLReadURL, nil, cfg.LivenessTimeout)
	if err != nil {
		return fmt.Errorf("authz: AUTH_POSTGRESQL_READ_URL: %w", err)
	}
	if replica.Dialect().Name() != az.db.Dialect().Name() {
		replica.Close()
		return errors.New("authz: AUTH_POSTGRESQL_READ_URL names a PostgreSQL standby, and the primary store is not PostgreSQL (set AUTH_DATABASE_TYPE=postgresql and AUTH_POSTGRESQL_URL to its primary)")
	}
	if cfg.TracerProvider != nil {
		replica = storage.Traced(replica, cfg.TracerProvider)
	}
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	standby, err := storage.DetectStandby(dctx, replica)
	switch {
	case err != nil:
		// Reads go to the primary until it answers; Open does not wait
		// for a replica, which is only ever a shortcut.
		az.replicaNote = "not answering yet (" + err.Error() + "): reading from the primary until it does"
	case standby:
		az.replicaNote = storage.Describe(dctx, replica) + ", a standby (in recovery)"
	default:
		az.replicaNote = storage.Describe(dctx, replica) + ", not in recovery: read under the same freshness rule as a standby"
	}
	if storage.Has(replica, storage.Listen) {
		// Never subscribed to either way; a server that could LISTEN is
		// worth a word, since it may be the primary itself.
		az.log.Warn("AUTH_POSTGRESQL_READ_URL names a server that is not a standby (pg_is_in_recovery() is false): rolegate reads from it only what it has replayed, as from a standby")
	}
	az.replica = replica
	rc.Standby = replica
	az.reader = feed.NewReader(rc)
	if err != nil {
		az.reader.NotAnswering(err)
	}
	return nil
}

// closeReplica closes the read replica, after the background looks.
func (az *Authz) closeReplica() error {
	if az.reader != nil {
		az.reader.Close()
	}
	if az.replica == nil {
		return nil
	}
	storage.ForgetReplica(az.replica)
	return az.replica.Close()
}

// reading runs read of the client's rows where its reads go: on the
// standby when it has replayed what the client's cache reflects (with
// strict consistency: the primary's current revision), else on the
// primary. read calls hand before it hands on anything it read (see
// feed.Reader.Read).
func (c *Client) reading(ctx context.Context, read func(ctx context.Context, db bun.IDB, hand func()) error) error {
	return c.az.reader.Read(ctx, c.follow, c.strict, read)
}

// readValue is reading for a read that returns its answer whole.
func readValue[T any](ctx context.Context, c *Client, read func(ctx context.Context, db bun.IDB) (T, error)) (T, error) {
	var v T
	err := c.reading(ctx, func(ctx context.Context, db bun.IDB, _ func()) error {
		var err error
		v, err = read(ctx, db)
		return err
	})
	return v, err
}

// readPages is reading for a list handed on a page at a time to fn: its
// first page is the hand.
func readPages[T any](ctx context.Context, c *Client, fn func(T) error, read func(ctx context.Context, db bun.IDB, fn func(T) error) error) error {
	return c.reading(ctx, func(ctx context.Context, db bun.IDB, hand func()) error {
		return read(ctx, db, func(page T) error {
			hand()
			return fn(page)
		})
	})
}

// names is storage.Names where the client's reads go.
func (c *Client) names(ctx context.Context, kind storage.List, name string) ([]string, error) {
	return readValue(ctx, c, func(ctx context.Context, db bun.IDB) ([]string, error) {
		return storage.Names(ctx, db, c.scope, kind, name)
	})
}

// members is storage.Members where the client's reads go.
func (c *Client) members(ctx context.Context, kind storage.List, scope, of string) ([]storage.Member, error) {
	return readValue(ctx, c, func(ctx context.Context, db bun.IDB) ([]storage.Member, error) {
		return storage.Members(ctx, db, c.scope, kind, scope, of)
	})
}
