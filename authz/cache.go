package authz

import (
	"sync"
	"sync/atomic"

	"github.com/puzpuzpuz/xsync/v3"
)

// clientCache is the decision cache of one client: per user, the set of
// permissions and roles, built from the store on first use.
//
// The hit path takes no lock: a lock-free map load, one atomic load of the
// generation, a plain map lookup. Staleness is handled by two mechanisms:
//   - gen: a change that may touch many users (a grant, a revoke, a role
//     deleted, a change seen from another replica) bumps it, and every
//     entry built under an older generation is stale at once;
//   - a membership change deletes only that user's entry, and bumps
//     memberEpoch so that a build that raced with it is thrown away.
type clientCache struct {
	users       *xsync.MapOf[string, *userEntry]
	gen         atomic.Uint64
	memberEpoch atomic.Uint64
	// building counts the entries being read from the store now: a cache
	// that is empty but building must still follow other replicas'
	// changes, or a build that read before a change could publish after.
	building atomic.Int32
	// revs is the store revision this cache is known to reflect.
	revs revisions

	// Eviction: clock is advanced at each sweep; entries record the clock
	// of their last use, so a sweep drops the least recently used.
	max     int
	clock   atomic.Uint32
	inserts atomic.Uint32
	sweep   sync.Mutex

	// detached: the handle was dropped from Authz's client table (or Authz
	// closed), so no watcher keeps this cache right any more; it caches
	// nothing from then on and every check reads the store.
	detached atomic.Bool
}

type userEntry struct {
	user  string // the key, kept so guards can point at it (InternUser)
	gen   uint64
	perms map[string]struct{}
	roles map[string]struct{}
	used  atomic.Uint32
	// scopes holds what the user's memberships in some scopes add to the
	// global sets above, read on the first check in each scope. Copied on
	// write; at most maxScopesPerUser. It lives in the user's entry so that
	// whatever drops the entry (a membership change of the user, global or
	// scoped) drops it too.
	scopes atomic.Pointer[map[string]*scopeEntry]
}

// scopeEntry is what a user's memberships in one scope grant, inherited
// permissions included.
type scopeEntry struct {
	gen   uint64
	perms map[string]struct{}
	roles map[string]struct{}
}

// maxScopesPerUser bounds the scopes cached per user, so that checks in
// ever new scopes (a scope from a URL) cannot grow memory: beyond it the
// entry starts a fresh set.
const maxScopesPerUser = 16

// lookupScope returns the fresh scope part of a fresh entry, or nil.
func (cc *clientCache) lookupScope(e *userEntry, scope string) *scopeEntry {
	m := e.scopes.Load()
	if m == nil {
		return nil
	}
	se := (*m)[scope]
	if se == nil || se.gen != cc.gen.Load() {
		return nil
	}
	return se
}

// storeScope caches the scope part of e read under t, unless a change
// since t may have made it stale (it is still returned, for this check).
func (cc *clientCache) storeScope(e *userEntry, scope string, t ticket, roles, perms []string) *scopeEntry {
	se := &scopeEntry{gen: t.gen, perms: toSet(perms), roles: toSet(roles)}
	for {
		if cc.detached.Load() || cc.memberEpoch.Load() != t.epoch {
			return se
		}
		old := e.scopes.Load()
		next := make(map[string]*scopeEntry, 1)
		if old != nil && len(*old) < maxScopesPerUser {
			for k, v := range *old {
				next[k] = v
			}
		}
		next[scope] = se
		if e.scopes.CompareAndSwap(old, &next) {
			return se
		}
	}
}

func newClientCache(max int) *clientCache {
	return &clientCache{users: xsync.NewMapOf[string, *userEntry](), max: max}
}

// lookup returns a fresh entry for user, or nil.
func (cc *clientCache) lookup(user string) *userEntry {
	e, ok := cc.users.Load(user)
	if !ok || e == nil || e.gen != cc.gen.Load() {
		return nil
	}
	// Write only when the clock moved: most hits stay read-only, so cores
	// checking the same user do not fight over its cache line.
	if now := cc.clock.Load(); e.used.Load() != now {
		e.used.Store(now)
	}
	return e
}

// ticket is taken before reading the store for a user; store uses it to
// refuse an entry that a concurrent change made stale.
type ticket struct{ gen, epoch uint64 }

func (cc *clientCache) ticket() ticket {
	return ticket{gen: cc.gen.Load(), epoch: cc.memberEpoch.Load()}
}

// store caches what was read under t. An entry whose read may have missed
// a membership change is withdrawn; one that missed a wider change carries
// the old generation and is ignored by lookup.
func (cc *clientCache) store(user string, t ticket, roles, perms []string) *userEntry {
	e := &userEntry{user: user, gen: t.gen, perms: toSet(perms), roles: toSet(roles)}
	e.used.Store(cc.clock.Load())
	// Publish under the map's bucket lock, and only if no membership
	// changed since the ticket: invalidateUser bumps memberEpoch before it
	// deletes, so either we see the bump and keep out, or our entry is in
	// place before its delete removes it. Never an entry read before a
	// revoke that is still there after the revoke returned.
	cc.users.Compute(user, func(old *userEntry, loaded bool) (*userEntry, bool) {
		if cc.detached.Load() || cc.memberEpoch.Load() != t.epoch {
			return old, !loaded // leave what is there; insert nothing
		}
		return e, false
	})
	if cc.inserts.Add(1)%64 == 0 && cc.users.Size() > cc.max {
		cc.evict()
	}
	return e
}

func (cc *clientCache) invalidateAll() {
	cc.gen.Add(1)
}

func (cc *clientCache) invalidateUser(user string) {
	cc.memberEpoch.Add(1)
	cc.users.Delete(user)
}

// flush empties the cache: used when the cache can no longer trust what it
// holds (a lost listener, a failed revision check).
func (cc *clientCache) flush() {
	cc.gen.Add(1)
	cc.users.Clear()
}

// evict drops the least recently used entries until the cache is at 90%
// of its bound. One sweep at a time; checks keep running meanwhile.
func (cc *clientCache) evict() {
	if !cc.sweep.TryLock() {
		return
	}
	defer cc.sweep.Unlock()
	sweepOldest(cc.users, cc.max*9/10, func(e *userEntry) int64 { return int64(e.used.Load()) }, nil, nil)
	cc.clock.Add(1)
}

func (cc *clientCache) len() int { return cc.users.Size() }

// detach stops caching for good; see clientCache.detached.
func (cc *clientCache) detach() {
	cc.detached.Store(true)
	cc.flush()
}

func toSet(v []string) map[string]struct{} {
	m := make(map[string]struct{}, len(v))
	for _, s := range v {
		m[s] = struct{}{}
	}
	return m
}
