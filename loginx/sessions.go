package loginx

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx/internal/store"
)

// pollOverlap is how far back each poll re-reads revocations by time, so
// that one whose transaction committed after a higher id was seen is not
// missed.
const pollOverlap = time.Minute

// States of a liveSession.
const (
	sessionLive    int32 = iota
	sessionRevoked       // revoked, or its user deactivated
	sessionGone          // forgotten by memory; ask the store again
)

// liveSession is what this process knows of one session. Verified tokens
// keep a pointer to it, so that the hot path answers with one atomic load.
type liveSession struct {
	userID string
	state  atomic.Int32
	// until is the latest expiry (Unix ms, leeway included) of a token
	// accepted against this entry: after it the entry can be forgotten.
	until atomic.Int64
}

func (l *liveSession) extend(ms int64) {
	for {
		u := l.until.Load()
		if u >= ms || l.until.CompareAndSwap(u, ms) {
			return
		}
	}
}

// sessions is the in-memory view of the sessions that tokens name: filled
// on first use of a session from the store (one read per session per
// process) and by this process's logins, kept current by polling the
// revocations every replica writes (logout, refresh reuse, deactivation).
// Only tokens whose signature verifies reach it, so a stranger cannot make
// it grow or make it read the store.
type sessions struct {
	db   bun.IDB
	m    sync.Map // session id -> *liveSession
	miss atomic.Int64

	mu    sync.Mutex // serialises polls
	maxID int64
	polls int
}

var errUnknownSession = fmt.Errorf("%w: unknown session", ErrInvalidSession)

// started records a token this process just issued for a session it
// created or refreshed. It never overwrites what memory knows: a
// revocation that a poll applied meanwhile stays.
func (s *sessions) started(sid, userID string, untilMs int64) {
	l := &liveSession{userID: userID}
	l.until.Store(untilMs)
	for {
		v, loaded := s.m.LoadOrStore(sid, l)
		if !loaded {
			return
		}
		cur := v.(*liveSession)
		if cur.state.Load() != sessionGone {
			cur.extend(untilMs)
			return
		}
		if s.m.CompareAndSwap(sid, cur, l) {
			return
		}
	}
}

// lookup returns the entry of a session, reading the store when memory
// does not know it. A session that never existed is an error; a revoked
// one is an entry in state sessionRevoked.
func (s *sessions) lookup(ctx context.Context, sid string) (*liveSession, error) {
	v, ok := s.m.Load(sid)
	if ok && v.(*liveSession).state.Load() != sessionGone {
		return v.(*liveSession), nil
	}
	s.miss.Add(1)
	st, err := store.SessionStateByID(ctx, s.db, sid)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errUnknownSession
	}
	if err != nil {
		return nil, fmt.Errorf("loginx: reading the session: %w", err)
	}
	l := &liveSession{userID: st.UserID}
	if !st.Live {
		l.state.Store(sessionRevoked)
	}
	l.until.Store(st.ExpiresAt)
	for {
		if v, ok := s.m.Load(sid); !ok {
			if v, loaded := s.m.LoadOrStore(sid, l); loaded {
				if cur := v.(*liveSession); cur.state.Load() != sessionGone {
					return cur, nil
				}
				continue
			}
			return l, nil
		} else if cur := v.(*liveSession); cur.state.Load() != sessionGone {
			return cur, nil
		} else if s.m.CompareAndSwap(sid, cur, l) {
			return l, nil
		}
	}
}

// revoke marks a session revoked in this process.
func (s *sessions) revoke(sid string, untilMs int64) {
	l := &liveSession{}
	l.state.Store(sessionRevoked)
	l.until.Store(untilMs)
	for {
		v, loaded := s.m.LoadOrStore(sid, l)
		if !loaded {
			return
		}
		cur := v.(*liveSession)
		if cur.state.Load() != sessionGone {
			cur.state.Store(sessionRevoked)
			cur.extend(untilMs)
			return
		}
		if s.m.CompareAndSwap(sid, cur, l) {
			return
		}
	}
}

// poll reads revocations made since the last poll (by any replica) and
// forgets, now and then, entries whose every token has expired.
func (s *sessions) poll(ctx context.Context, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	nowMs := now.UnixMilli()
	rows, err := store.Revocations(ctx, s.db, s.maxID, now.Add(-pollOverlap).UnixMilli(), nowMs)
	if err != nil {
		return err
	}
	for _, row := range rows {
		s.revoke(row.SessionID, row.ExpiresAt+SessionLeeway.Milliseconds())
		s.maxID = max(s.maxID, row.ID)
	}
	if s.polls++; s.polls%64 == 0 {
		s.m.Range(func(k, v any) bool {
			l := v.(*liveSession)
			if l.until.Load() <= nowMs {
				// Gone first: a token cached with this entry then asks
				// again instead of trusting a state nobody updates.
				l.state.Store(sessionGone)
				s.m.CompareAndDelete(k, l)
			}
			return true
		})
	}
	return nil
}
