package feed

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// Notifier delivers the store's announcements of other processes' writes
// (cues), each naming the namespace a write changed.
type Notifier interface {
	// Announces reports whether cues arrive at all; without them the
	// periodic check alone keeps the caches right.
	Announces() bool
	// Listen delivers cues to h until ctx ends, reconnecting as needed,
	// and tells h when each subscription starts (or fails to) and ends.
	// It returns at once when the store announces nothing.
	Listen(ctx context.Context, h Handler)
}

// Handler receives what a Notifier hears, from one goroutine.
type Handler interface {
	// Subscribed: an attempt to subscribe ended, live (err nil) or not.
	// Whatever was written before it is unknown to the listener.
	Subscribed(ctx context.Context, err error)
	// Cue: a write to the namespace ns was announced.
	Cue(ctx context.Context, ns string)
	// Unsubscribed: the subscription is lost (err says why); the next
	// attempt is in retry. What is written meanwhile goes unheard.
	Unsubscribed(err error, retry time.Duration)
}

// NewNotifier returns the notifier of db's store: LISTEN/NOTIFY where the
// store has it (storage.Listen; a standby has not), else one that
// announces nothing. quiet is how long a subscription may stay silent
// before it proves itself alive (0: 5 s), and answer how long that proof
// may take (0: 1 s; see pgNotifier).
func NewNotifier(db *bun.DB, quiet, answer time.Duration) Notifier {
	if !storage.Has(db, storage.Listen) {
		return silent{}
	}
	if quiet <= 0 {
		quiet = 5 * time.Second
	}
	if answer <= 0 {
		answer = time.Second
	}
	return &pgNotifier{db: db, quiet: quiet, answer: answer}
}

// silent is the notifier of a store that announces nothing (SQLite: one
// process, or several that the periodic check keeps in step).
type silent struct{}

func (silent) Announces() bool                 { return false }
func (silent) Listen(context.Context, Handler) {}
