package authz

import (
	"context"
	"errors"
	"net"
	"slices"
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
		az.listening = make(chan error, 1)
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
// clients) with the store and drops from each cache what moved. One check
// at a time (the poller and the listener both call it): a check that read
// an older revision must not observe after one that read a newer, and a
// cache that has caught up has done its dropping too.
func (az *Authz) checkRevisions(ctx context.Context, only []string) {
	az.checking.Lock()
	defer az.checking.Unlock()
	var nss []string
	clients := map[string]*Client{}
	knowns := map[string]int64{}
	az.clients.Range(func(_ string, c *Client) bool {
		// An empty cache has nothing to keep right, unless an entry is
		// being built; it is compared once it holds something (a mismatch
		// then flushes, conservatively).
		if (only == nil || slices.Contains(only, c.scope.NS)) && c.cacheHolds() {
			nss = append(nss, c.scope.NS)
			clients[c.scope.NS] = c
			// Before the store is read: a local write that commits
			// meanwhile moves known past the revision read, which must
			// not look like a store gone back (and flush the cache).
			knowns[c.scope.NS] = c.known.Load()
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
			az.metrics.storeError(storeOpRevisionCheck)
			az.flushAll("revision check failed")
		}
		return
	}
	for ns, c := range clients {
		rev := revs[ns]
		if known := knowns[ns]; rev != known {
			az.metrics.lag(az.dropChanged(qctx, c, known, rev))
			c.caughtUp(known, rev)
		}
	}
}

// catchUp brings c's cache up to the store's revision of the client now,
// whatever its cache holds: it reads the revision and drops what changed
// since known, as checkRevisions does for one client. It returns the
// revision the cache then reflects. A cache already at want or beyond
// (want >= 0) returns at once: some check caught up meanwhile. An error
// (the store unreachable) leaves the cache as it was, and the caller
// must refuse rather than answer from it.
func (az *Authz) catchUp(ctx context.Context, c *Client, want int64) (int64, error) {
	az.checking.Lock()
	defer az.checking.Unlock()
	known := c.known.Load()
	if want >= 0 && known >= want {
		return known, nil
	}
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	rev, err := storage.Revision(qctx, az.db, c.scope.NS)
	if err != nil {
		if ctx.Err() == nil {
			az.metrics.storeError(storeOpRevisionCheck)
		}
		return known, err
	}
	if rev != known {
		az.metrics.lag(az.dropChanged(qctx, c, known, rev))
		c.caughtUp(known, rev)
	}
	return c.known.Load(), nil
}

// maxUnseen bounds the revisions dropChanged reads from the change log; a
// cache further behind is flushed instead.
const maxUnseen = 256

// dropChanged drops from c's cache what the revisions after known up to
// rev changed, according to the change log: the users whose memberships
// changed, the roles whose grants changed, the roles deleted (with their
// members); everything when the log names no one. The changes this
// process wrote (the log names its writer id) are left out: the write
// dropped what they changed already. Whatever cannot be read (too many
// revisions, entries pruned, the store failing, or a store gone back
// below known) flushes everything. It returns how many of the revisions
// were others' (all of them when it cannot tell).
func (az *Authz) dropChanged(ctx context.Context, c *Client, known, rev int64) (others int64) {
	if rev > known && rev-known <= maxUnseen {
		ch, err := storage.ChangedUsers(ctx, az.db, c.scope, az.writer, known, rev)
		if err == nil && ch.Complete {
			if !ch.All {
				for _, u := range ch.Users {
					c.dropUser(invalidReplica, u)
				}
				for _, r := range ch.Roles {
					c.dropRole(invalidReplica, r)
				}
				for _, r := range ch.DeletedRoles {
					c.dropDeletedRole(invalidReplica, r)
				}
				az.log.Debug("decision cache: what changed elsewhere dropped", "client", c.fingerprint,
					"revision", rev, "users", len(ch.Users), "roles", len(ch.Roles)+len(ch.DeletedRoles))
				return ch.Others
			}
			c.flushCache()
			az.log.Debug("decision cache flushed: the client changed elsewhere", "client", c.fingerprint, "revision", rev)
			return ch.Others
		}
	}
	c.flushCache()
	az.log.Debug("decision cache flushed: changes elsewhere not in the change log", "client", c.fingerprint, "revision", rev)
	return max(rev-known, 0)
}

// caughtUp records that c's cache reflects every revision up to rev, read
// from the store by a check that began at known and has dropped what
// changed since. Meanwhile only c's own writes move known, each by one
// revision; when they carried it past rev it stays there. A store gone
// back (rev below known: restored, or a new database) starts again from
// what it says.
func (c *Client) caughtUp(known, rev int64) {
	if rev < known {
		c.known.Store(rev)
		return
	}
	for {
		cur := c.known.Load()
		if cur >= rev || c.known.CompareAndSwap(cur, rev) {
			return
		}
	}
}

// unseen counts the revisions up to rev (read from the store) that c's
// cache has not seen and this process did not write, from the change log
// (every revision above the cache's when the log cannot tell).
func (az *Authz) unseen(ctx context.Context, c *Client, rev int64) int64 {
	known := c.known.Load()
	n := rev - known
	if n <= 0 {
		return 0
	}
	if n <= maxUnseen {
		if ch, err := storage.ChangedUsers(ctx, az.db, c.scope, az.writer, known, rev); err == nil && ch.Complete {
			return ch.Others
		}
	}
	return n
}

func (az *Authz) flushAll(reason string) {
	n := 0
	az.clients.Range(func(_ string, c *Client) bool {
		if c.cacheHolds() {
			n++
			c.flushCache()
		} else {
			c.cache.Flush() // nothing to count, but a build may be running
		}
		return true
	})
	if n > 0 {
		az.log.Warn("decision cache flushed", "reason", reason, "clients", n)
	}
}

// listen follows the change channel on a dedicated connection.
func (az *Authz) listen(ctx context.Context) {
	backoff := 100 * time.Millisecond
	for attempt := 0; ctx.Err() == nil; attempt++ {
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
		// Bounded: a server that accepts and never answers must not hang
		// the watcher (nor Close, which waits for it).
		lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := ln.Listen(lctx, storage.ChangesChannel)
		cancel()
		// Live before Open hears of it, so /ping agrees with the startup line.
		az.listenerLive.Store(err == nil)
		select { // the first outcome, for Open's startup line
		case az.listening <- err:
		default:
		}
		if err == nil {
			if attempt > 0 {
				az.metrics.reconnected()
			}
			backoff = 100 * time.Millisecond
			// Whatever happened while we were not listening is unknown.
			az.checkRevisions(ctx, nil)
			err = az.receive(ctx, ln)
			az.listenerLive.Store(false)
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

// pingPayload is the payload of the NOTIFY a quiet listener sends itself.
const pingPayload = "ping"

// receive handles notifications until the connection fails. After 30 s of
// quiet it sends itself a NOTIFY through the pool: only a notification
// that comes back proves the connection alive (writing LISTEN alone would
// succeed on a half-open connection for minutes). No answer within 10 s
// counts as a lost connection.
func (az *Authz) receive(ctx context.Context, ln *pgdriver.Listener) error {
	quiet := az.cfg.listenerQuiet
	if quiet == 0 {
		quiet = 30 * time.Second
	}
	pinged := false
	for {
		timeout := quiet
		if pinged {
			timeout = quiet / 3
		}
		_, payload, err := ln.ReceiveTimeout(ctx, timeout)
		if err != nil {
			var ne net.Error
			if !errors.As(err, &ne) || !ne.Timeout() || ctx.Err() != nil {
				return err
			}
			if pinged {
				return errors.New("no answer to the listener's own ping")
			}
			pctx, cancel := context.WithTimeout(ctx, quiet/6)
			_, err := az.db.ExecContext(pctx, "SELECT pg_notify(?, ?)", storage.ChangesChannel, pingPayload)
			cancel()
			if err != nil {
				return err
			}
			pinged = true
			continue
		}
		pinged = false // anything that arrives proves the connection
		if payload != pingPayload {
			az.checkRevisions(ctx, []string{payload})
		}
	}
}
