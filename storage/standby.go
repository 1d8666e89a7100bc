package storage

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"
)

// A read replica is a second PostgreSQL server that rolegate only reads
// from: a hot standby streaming the primary's WAL. What it has replayed
// lags the primary, so a reader compares the client's revision row there
// with the revision it needs before it trusts the rest (authz/internal/feed).

// OpenReplica opens the read replica at rawURL (postgres://...), with
// params as session settings on every connection. Each round trip is
// bounded by bound: connecting, and every wait for the server's next
// message, so that a replica that stops answering fails a read within
// bound instead of holding it. It does not ping: DetectStandby does.
func OpenReplica(rawURL string, params map[string]any, bound time.Duration) (*bun.DB, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (!strings.EqualFold(u.Scheme, "postgres") && !strings.EqualFold(u.Scheme, "postgresql")) {
		return nil, errors.New("storage: the read replica's URL is not a postgres:// URL")
	}
	db, err := openPostgres(rawURL, params, pgdriver.WithTimeout(bound))
	if err != nil {
		return nil, err
	}
	// Reads only, and a reader finding every connection busy goes to the
	// primary instead of queueing (see feed.Standby): a small pool.
	db.SetMaxOpenConns(replicaConns)
	db.SetMaxIdleConns(replicaConns)
	return db, nil
}

// replicaConns is the read replica's pool size.
const replicaConns = 16

// ReplicaConns is how many reads the read replica's pool runs at once.
func ReplicaConns() int { return replicaConns }

// DetectStandby asks the replica whether it is a standby
// (pg_is_in_recovery()) and records the answer for Has: a standby has
// Standby and not Listen. A replica that cannot be asked is recorded as a
// standby (nothing but reads ever goes to it, and a LISTEN there would
// hear nothing) and the error says why.
func DetectStandby(ctx context.Context, db *bun.DB) (bool, error) {
	var inRecovery bool
	err := db.QueryRowContext(ctx, "SELECT pg_is_in_recovery()").Scan(&inRecovery)
	if err != nil {
		standbys.Store(db, struct{}{})
		return true, fmt.Errorf("storage: cannot ask the read replica whether it is a standby: %w", Classify(err))
	}
	if inRecovery {
		standbys.Store(db, struct{}{})
	} else {
		standbys.Delete(db)
	}
	return inRecovery, nil
}

// ForgetReplica drops what DetectStandby recorded of db (when it closes).
func ForgetReplica(db *bun.DB) { standbys.Delete(db) }

// ReplicaFailed reports whether err, from a read on a read replica, is
// the replica's failure rather than an answer: the replica out of reach
// or slow (ErrUnavailable), or PostgreSQL refusing the statement there (a
// standby cancels a query that conflicts with the WAL it replays, SQLSTATE
// 40001; a server promoted or demoted meanwhile). The read is then the
// primary's to answer. Answers such as ErrRoleNotFound are not failures.
func ReplicaFailed(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrUnavailable) || isUnavailable(err) {
		return true
	}
	var pgErr pgdriver.Error
	return errors.As(err, &pgErr)
}

// ReplicaDown reports whether err, from the read replica, says it is out
// of reach (as opposed to one statement refused there).
func ReplicaDown(err error) bool {
	return errors.Is(err, ErrUnavailable) || isUnavailable(err)
}
