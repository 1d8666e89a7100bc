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
// A session follows its user's id: username is the user's RBAC name as the
// store had it when the entry was made. A rename of the user marks the
// entry gone (see sessions.poll), so the next token naming the session
// reads the new name; the name claim of a token is never what a guard sees.
type liveSession struct {
	userID   string
	username string
	state    atomic.Int32
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
	// renames counts the polls that found renames. A store read made
	// while it moved may hold a name from before a rename that the poll
	// looked for in memory before the entry was there; such an entry is
	// marked gone at once (see settle).
	renames atomic.Uint64

	mu       sync.Mutex // serialises polls
	maxID    int64
	polls    int
	renameID int64           // the highest rename id seen
	renamed  map[int64]int64 // rename ids seen in the poll margin -> renamed_at
}

var errUnknownSession = fmt.Errorf("%w: unknown session", ErrInvalidSession)

// started records a token this process just issued for a session it
// created or refreshed, for the user userID named username in a store read
// made when s.renames was gen. It never overwrites what memory knows: a
// revocation or a rename that a poll applied meanwhile stays.
func (s *sessions) started(sid, userID, username string, untilMs int64, gen uint64) {
	l := &liveSession{userID: userID, username: username}
	l.until.Store(untilMs)
	for {
		v, loaded := s.m.LoadOrStore(sid, l)
		if !loaded {
			s.settle(l, gen)
			return
		}
		cur := v.(*liveSession)
		if cur.state.Load() != sessionGone {
			cur.extend(untilMs)
			return
		}
		if s.m.CompareAndSwap(sid, cur, l) {
			s.settle(l, gen)
			return
		}
	}
}

// settle marks gone an entry just put in memory from a store read made
// when s.renames was gen, if a poll found renames since: that poll may
// have looked for the entry's user before the entry was there, and its
// name may be the old one. The next token naming the session reads it
// again; the request at hand goes on with the name it read, as it would
// have had it run a moment earlier.
func (s *sessions) settle(l *liveSession, gen uint64) {
	if s.renames.Load() != gen {
		l.state.CompareAndSwap(sessionLive, sessionGone)
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
	gen := s.renames.Load()
	st, err := store.SessionStateByID(ctx, s.db, sid)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errUnknownSession
	}
	if err != nil {
		return nil, fmt.Errorf("loginx: reading the session: %w", err)
	}
	l := &liveSession{userID: st.UserID, username: st.Username}
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
			s.settle(l, gen)
			return l, nil
		} else if cur := v.(*liveSession); cur.state.Load() != sessionGone {
			return cur, nil
		} else if s.m.CompareAndSwap(sid, cur, l) {
			s.settle(l, gen)
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
	if err := s.pollRenames(ctx, now); err != nil {
		return err
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

// pollRenames reads the renames made since the last poll (by any replica,
// with the same margin as revocations) and marks gone the sessions in
// memory of each renamed user, so that the next token naming one of them
// reads the user's name again: one store read per session and process
// after a rename, none per request. A rename seen once is not applied
// again while it stays in the margin.
func (s *sessions) pollRenames(ctx context.Context, now time.Time) error {
	since := now.Add(-pollOverlap).UnixMilli()
	rows, err := store.Renames(ctx, s.db, s.renameID, since, now.UnixMilli())
	if err != nil {
		return err
	}
	if s.renamed == nil {
		s.renamed = map[int64]int64{}
	}
	for id, at := range s.renamed {
		if at < since {
			delete(s.renamed, id)
		}
	}
	users := map[string]bool{}
	for _, row := range rows {
		s.renameID = max(s.renameID, row.ID)
		if _, seen := s.renamed[row.ID]; !seen {
			s.renamed[row.ID] = row.RenamedAt
			users[row.UserID] = true
		}
	}
	if len(users) == 0 {
		return nil
	}
	// First the count, then the sweep: an entry put in memory after the
	// sweep passed it was read from the store before the count moved, and
	// settle marks it.
	s.renames.Add(1)
	s.m.Range(func(_, v any) bool {
		if l := v.(*liveSession); users[l.userID] {
			l.state.CompareAndSwap(sessionLive, sessionGone)
		}
		return true
	})
	return nil
}
