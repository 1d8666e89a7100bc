package loginx

import (
	"context"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
)

// pollOverlap is how far back each poll re-reads revocations by time, so
// that one whose transaction committed after a higher id was seen is not
// missed.
const pollOverlap = time.Minute

// revocations is the in-memory set of revoked session ids that the hot
// path consults, filled from the store and kept current by polling.
type revocations struct {
	set sync.Map // session id -> expiry (Unix ms)

	mu    sync.Mutex // serialises polls
	maxID int64
	polls int
}

// has reports whether the session was revoked.
func (r *revocations) has(sid string) bool {
	_, ok := r.set.Load(sid)
	return ok
}

// add records a revocation made in this process.
func (r *revocations) add(sid string, expiresMs int64) {
	r.set.Store(sid, expiresMs)
}

// poll reads revocations made since the last poll (by any replica) and
// forgets expired ones now and then.
func (r *revocations) poll(ctx context.Context, db bun.IDB, now time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	nowMs := now.UnixMilli()
	rows, err := storage.LoginRevocations(ctx, db, r.maxID, now.Add(-pollOverlap).UnixMilli(), nowMs)
	if err != nil {
		return err
	}
	for _, row := range rows {
		r.set.Store(row.SessionID, row.ExpiresAt)
		r.maxID = max(r.maxID, row.ID)
	}
	if r.polls++; r.polls%64 == 0 {
		r.set.Range(func(k, v any) bool {
			if v.(int64) <= nowMs {
				r.set.Delete(k)
			}
			return true
		})
	}
	return nil
}
