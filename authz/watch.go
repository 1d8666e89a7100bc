package authz

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/rolegate/rolegate/storage"
)

// startWatcher keeps the decision cache right when other processes write:
//   - on every store, a periodic revision check compares each client's
//     revision with the store's and flushes a client that moved; if the
//     check itself fails, every cache is flushed, so that guards fail
//     closed instead of answering from data nobody can vouch for;
//   - on PostgreSQL, a listener on a dedicated connection receives the
//     NOTIFY each write sends and runs the check at once. A notification is
//     only a cue: anyone who can connect can send one, so the revision is
//     always read back from the store. Losing the listener connection
//     flushes every cache, and it reconnects with backoff.
func (az *Authz) startWatcher(ctx context.Context) {
	az.wg.Add(1)
	go func() {
		defer az.wg.Done()
		az.pollRevisions(ctx)
	}()
	if storage.IsPostgres(az.db) {
		az.wg.Add(1)
		go func() {
			defer az.wg.Done()
			az.listen(ctx)
		}()
	}
}

func (az *Authz) pollRevisions(ctx context.Context) {
	t := time.NewTicker(az.cfg.RevisionCheckInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			az.checkRevisions(ctx, nil)
		}
	}
}

// checkRevisions compares the revisions of the given namespaces (nil: all
// clients) with the store and flushes those that moved.
func (az *Authz) checkRevisions(ctx context.Context, only []string) {
	var nss []string
	clients := map[string]*Client{}
	az.clients.Range(func(_ string, c *Client) bool {
		// An empty cache has nothing to keep right; it is compared once
		// it holds something (a mismatch then flushes, conservatively).
		if (only == nil || contains(only, c.scope.NS)) && c.cache.len() > 0 {
			nss = append(nss, c.scope.NS)
			clients[c.scope.NS] = c
		}
		return true
	})
	if len(nss) == 0 {
		return
	}
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	revs, err := storage.Revisions(qctx, az.db, nss)
	if err != nil {
		if ctx.Err() == nil {
			az.flushAll("revision check failed")
		}
		return
	}
	for ns, c := range clients {
		if c.cache.revs.observe(revs[ns]) {
			c.cache.flush()
		}
	}
}

func (az *Authz) flushAll(reason string) {
	n := 0
	az.clients.Range(func(_ string, c *Client) bool {
		if c.cache.len() > 0 {
			n++
		}
		c.cache.flush()
		return true
	})
	if n > 0 {
		az.log.Warn("decision cache flushed", "reason", reason, "clients", n)
	}
}

// listen follows the change channel on a dedicated connection.
func (az *Authz) listen(ctx context.Context) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		ln := pgdriver.NewListener(az.db)
		// Closing the listener is what interrupts a blocked receive.
		done := make(chan struct{})
		go func() {
			select {
			case <-ctx.Done():
			case <-done:
			}
			_ = ln.Close()
		}()
		err := ln.Listen(ctx, storage.ChangesChannel)
		if err == nil {
			backoff = 100 * time.Millisecond
			// Whatever happened while we were not listening is unknown.
			az.checkRevisions(ctx, nil)
			err = az.receive(ctx, ln)
		}
		close(done)
		if ctx.Err() != nil {
			return
		}
		az.flushAll("change listener lost")
		az.log.Warn("change listener reconnecting", "in", backoff.String(), "error", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// receive handles notifications until the connection fails.
func (az *Authz) receive(ctx context.Context, ln *pgdriver.Listener) error {
	for {
		_, payload, err := ln.ReceiveTimeout(ctx, 30*time.Second)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil {
				// Quiet for a while: prove the connection still works.
				if err := ln.Listen(ctx, storage.ChangesChannel); err != nil {
					return err
				}
				continue
			}
			return err
		}
		az.checkRevisions(ctx, []string{payload})
	}
}

func contains(v []string, s string) bool {
	for _, x := range v {
		if x == s {
			return true
		}
	}
	return false
}
