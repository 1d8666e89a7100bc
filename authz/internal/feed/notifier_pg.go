package feed

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/rolegate/rolegate/storage"
)

// pgNotifier follows PostgreSQL's change channel (storage.ChangesChannel),
// on which every write's transaction queues a NOTIFY naming its namespace,
// on a dedicated connection.
type pgNotifier struct {
	db *bun.DB
	// quiet: after this long without traffic, the listener sends itself
	// a NOTIFY (see receive); answer: how long it may take to come back.
	quiet, answer time.Duration
}

func (*pgNotifier) Announces() bool { return true }

// Listen subscribes, receives until the connection fails, and subscribes
// again with a backoff of 100 ms doubling up to 5 s.
func (n *pgNotifier) Listen(ctx context.Context, h Handler) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		ln := pgdriver.NewListener(n.db)
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
		// the listener (nor Close, which waits for it).
		lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := ln.Listen(lctx, storage.ChangesChannel)
		cancel()
		h.Subscribed(ctx, err)
		if err == nil {
			backoff = 100 * time.Millisecond
			err = n.receive(ctx, ln, h)
		}
		close(done)
		if ctx.Err() != nil {
			return
		}
		h.Unsubscribed(err, backoff)
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

// receive hands cues to h until the connection fails. After n.quiet of
// silence it sends itself a NOTIFY through the pool: only a notification
// that comes back proves the connection alive (writing LISTEN alone would
// succeed on a half-open connection for minutes). No answer within
// n.answer counts as a lost connection: a stalled listener is found
// within quiet plus answer (6 s by default), and meanwhile the periodic
// revision check bounds what goes unheard.
func (n *pgNotifier) receive(ctx context.Context, ln *pgdriver.Listener, h Handler) error {
	pinged := false
	for {
		timeout := n.quiet
		if pinged {
			timeout = n.answer
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
			pctx, cancel := context.WithTimeout(ctx, n.answer)
			_, err := n.db.ExecContext(pctx, "SELECT pg_notify(?, ?)", storage.ChangesChannel, pingPayload)
			cancel()
			if err != nil {
				return err
			}
			pinged = true
			continue
		}
		pinged = false // anything that arrives proves the connection
		if payload != pingPayload {
			h.Cue(ctx, payload)
		}
	}
}
