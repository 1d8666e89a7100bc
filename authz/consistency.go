package authz

import (
	"context"
	"fmt"
	"strings"

	"github.com/rolegate/rolegate/authz/internal/feed"
)

// Reads that follow a write. Every write of a client bumps the client's
// revision in its own transaction; a revision token names one. A read
// given a token answers from state at least that new, even on a replica
// whose cache has not heard of the write yet: it catches up first (reads
// the revision and drops what changed, as the change feed would). With
// Config.Consistency "strict", every check confirms with one read of the
// revision that the cache is current. The mechanics are the change
// feed's (authz/internal/feed); this file is the API.

// Values of Config.Consistency.
const (
	// ConsistencyDefault: checks answer from the cache, which another
	// replica's change reaches through the listener (PostgreSQL) or the
	// periodic revision check. The window is stated in docs/replicas.md.
	ConsistencyDefault = ""
	// ConsistencyStrict: every check first reads the client's revision
	// (one read by primary key) and catches up when the cache is behind,
	// so that no check answers from state older than the last write
	// committed before it began, on any replica.
	ConsistencyStrict = "strict"
)

// ErrInvalidRevision: a revision token is malformed, or names a revision
// the client's store has not reached (a token of another database, or one
// from before the store was restored). HTTP 400.
var ErrInvalidRevision = feed.ErrInvalid

// Revision returns the token of the client's current revision in the
// store (one read by primary key): a read with AtLeast of it sees every
// write committed before the call.
func (c *Client) Revision(ctx context.Context) (string, error) {
	if c.az.closed.Load() {
		return "", ErrClosed
	}
	rev, err := c.az.feed.Revision(ctx, c.follow)
	if err != nil {
		return "", err
	}
	return feed.Format(rev), nil
}

// AtLeast makes the client's cache reflect at least the revision of token
// (a Written.Revision from Client.Writes, a Revision token, or a REST
// Rolegate-Revision header): when it is behind, it catches up now (one read of the
// revision, one of the change log, dropping what changed) rather than
// wait for the watcher. Checks that begin after it returns (and the
// store reads, which are never behind) then answer from state at least
// that new. A cache already there costs nothing. ErrInvalidRevision for a
// malformed token or one the store has not reached; an error wrapping
// ErrUnavailable when the store cannot be read.
func (c *Client) AtLeast(ctx context.Context, token string) error {
	want, err := feed.Parse(token)
	if err != nil {
		return err
	}
	if c.follow.Known() >= want {
		return nil // the common case: no catching up
	}
	if c.az.closed.Load() {
		return ErrClosed
	}
	return c.az.feed.AtLeast(ctx, c.follow, want)
}

// UserHasPermissionAt is UserHasPermission answered from state at least
// as new as token (see AtLeast).
func (c *Client) UserHasPermissionAt(ctx context.Context, token, user, permission string) (bool, error) {
	if err := c.AtLeast(ctx, token); err != nil {
		return false, err
	}
	return c.UserHasPermission(ctx, user, permission)
}

// confirm is the strict mode's step before every check: one read of the
// client's revision, and a catch-up when the cache is not at it.
func (c *Client) confirm(ctx context.Context) error {
	if c.az.closed.Load() {
		return ErrClosed
	}
	return c.az.feed.Confirm(ctx, c.follow)
}

// consistencyProblems checks Config.Consistency.
func (c Config) consistencyProblems() []error {
	switch c.Consistency {
	case ConsistencyDefault, ConsistencyStrict:
		return nil
	}
	return []error{fmt.Errorf("AUTH_CONSISTENCY=%q is unknown (use strict, or leave it unset)", c.Consistency)}
}

// parseConsistency reads AUTH_CONSISTENCY: "strict", or "default" (the
// same as unset), in any letter case.
func parseConsistency(c *Config, key, v string) error {
	switch strings.ToLower(v) {
	case "default":
		c.Consistency = ConsistencyDefault
	case ConsistencyStrict:
		c.Consistency = ConsistencyStrict
	default:
		return fmt.Errorf("%s=%q is unknown (use strict or default)", key, v)
	}
	return nil
}
