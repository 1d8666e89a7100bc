package authz

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rolegate/rolegate/authz/internal/feed"
	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/storage"
)

// The public change feed: what each write of the client did, oldest
// first, for readers outside the process (GET /api/changes, rolegatectl
// changes --follow): search indexes, audit pipelines, services in other
// languages, a copy kept in step with a backup.

type (
	// Change is one operation of the change feed, with only the fields
	// its operation has.
	Change = rbac.Change
	// Changes is a page of the change feed with the token to read after
	// next.
	Changes = rbac.Changes
)

// ErrChangesGone: the changes after the revision asked for are no longer
// kept (Config.ChangesRetention; HTTP 410). Resync from a backup, which
// records the revision it was taken at, and follow from there.
var ErrChangesGone = rbac.ErrChangesGone

// Paging of the change feed: DefaultChangesLimit changes a page when the
// caller names no limit, at most MaxChangesLimit; MaxChangesWait is the
// longest a reader may wait for a change (WaitChanges, ?wait=).
const (
	DefaultChangesLimit = 100
	MaxChangesLimit     = 1000
	MaxChangesWait      = 50 * time.Second
)

// Changes returns the client's changes after the revision of token after
// (a token as Writes, Revision, a backup or a previous page's Next give;
// "" reads from the start), oldest first, at most limit of them (limit <=
// 0: DefaultChangesLimit; at most MaxChangesLimit). Next is where to read
// after next: a revision token, or inside a revision whose changes (a
// batch's) went on past the page, that token and the number of the last
// change read ("r42.999"); after itself when there is nothing new. ErrChangesGone when changes after
// after are no longer kept; ErrInvalidRevision for a malformed token or
// one the client's store has not reached.
func (c *Client) Changes(ctx context.Context, after string, limit int) (Changes, error) {
	return c.WaitChanges(ctx, after, limit, 0)
}

// WaitChanges is Changes that, when there is nothing after after, waits
// up to wait (at most MaxChangesWait) for a change to arrive, from this
// process or another replica, and returns as soon as one does. After wait
// with nothing new it returns an empty page whose Next is after (or past
// revisions that made no change of the feed's).
func (c *Client) WaitChanges(ctx context.Context, after string, limit int, wait time.Duration) (Changes, error) {
	if c.az.closed.Load() {
		return Changes{}, ErrClosed
	}
	rev, seq := int64(0), -1
	if after != "" {
		var err error
		if rev, seq, err = feed.ParseCursor(after); err != nil {
			return Changes{}, err
		}
	}
	if limit <= 0 {
		limit = DefaultChangesLimit
	}
	limit = min(limit, MaxChangesLimit)
	wait = min(max(wait, 0), MaxChangesWait)
	var page storage.FeedPage
	err := c.az.feed.Await(ctx, c.scope.NS, wait, func(ctx context.Context) (bool, error) {
		var err error
		page, err = storage.ReadFeed(ctx, c.az.db, c.scope, rev, seq, limit)
		switch {
		case errors.Is(err, storage.ErrFeedGone):
			return false, fmt.Errorf("%w: the changes after %s are no longer kept (AUTH_CHANGES_RETENTION); resync from a backup, which records the revision it was taken at, and follow from there",
				ErrChangesGone, feed.Format(rev))
		case err != nil:
			return false, err
		case rev > page.Current:
			return false, fmt.Errorf("%w: %s names a revision the store has not reached (it is at %s)",
				ErrInvalidRevision, feed.Format(rev), feed.Format(page.Current))
		}
		return len(page.Entries) > 0, nil
	})
	if err != nil {
		return Changes{}, err
	}
	out := Changes{Changes: make([]Change, len(page.Entries)), Next: feed.FormatCursor(page.Next, page.NextSeq)}
	for i, e := range page.Entries {
		out.Changes[i] = changeOf(e)
	}
	return out, nil
}

// changeOf is a feed entry as the API shows it.
func changeOf(e storage.FeedEntry) Change {
	ch := Change{Revision: feed.Format(e.Revision), Op: e.Op, Role: e.Role, Permission: e.Permission, User: e.User,
		Scope: e.Scope, Parent: e.Parent, Description: e.Description, NewUser: e.NewUser, Merge: e.Merge,
		Actor: e.Actor, Reason: e.Reason, At: e.At}
	if !e.Bounds.Starts.IsZero() {
		t := e.Bounds.Starts
		ch.StartsAt = &t
	}
	if !e.Bounds.Expires.IsZero() {
		t := e.Bounds.Expires
		ch.ExpiresAt = &t
	}
	return ch
}
