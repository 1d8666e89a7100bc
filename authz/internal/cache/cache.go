package cache

import (
	"context"
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/puzpuzpuz/xsync/v3"

	"github.com/rolegate/rolegate/authz/internal/clock"
)

// Cache is the decision cache of one client. Its methods are safe for
// concurrent use.
type Cache struct {
	load   Loader
	budget *Budget
	clock  clock.Clock
	// admit and miss are the miss path's (see check.go): the gate before
	// it, and its store read wrapped in the layers given.
	admit func() error
	miss  Miss
	users *xsync.MapOf[string, *userEntry]
	roles *xsync.MapOf[string, *roleEntry]

	// mu orders publishing against invalidating: a build compares its
	// ticket with the epoch and publishes under mu, and an invalidation
	// bumps the epoch and drops entries under mu, so a build that read the
	// store before an invalidation can never publish after it. The hit
	// path never takes it.
	mu        sync.Mutex
	userEpoch atomic.Uint64 // bumped (under mu) by every user invalidation
	roleEpoch atomic.Uint64 // bumped (under mu) by every role invalidation
	// dependents: for a role R, the cached role entries built from R
	// other than R's own (with inheritance: R's descendants), so a change
	// to R drops them too. Guarded by mu.
	dependents map[string][]*roleEntry
	// sets interns the role sets' permission sets by content hash, so
	// roles with the same effective set share one. Guarded by mu.
	sets       map[uint64][]*permSet
	closed     bool // guarded by mu; also read lock-free through closedFlag
	closedFlag atomic.Bool
	// renew: role sets killed while in use are read again at once, and
	// their members' entries refreshed (see renew.go); renewRoles and
	// renewUsers are the roles and users waiting, renewRuns whether the
	// goroutine renewing them runs. Guarded by mu.
	renew      bool
	renewRoles map[string]struct{}
	renewUsers map[*userEntry]struct{}
	renewRuns  bool
	// index is the warm check's way to a user's entry (see index.go),
	// changed with users; an entry that left users is marked gone, so a
	// check that read the index just before never answers with it.
	index atomic.Pointer[userIndex]
	// entries and bytes are what this cache holds in its budget, so that
	// eviction takes from the cache holding the most.
	entries, bytes atomic.Int64

	userFlights flights[*userEntry]
	roleFlights flights[*roleEntry]
	// building counts the builds reading the store now (see Building).
	building atomic.Int32

	// due are the boundaries of the entries held (see boundary.go), wake
	// the timer set for the earliest, at wakeAt. Guarded by mu.
	due    boundaries
	wake   clock.Timer
	wakeAt int64
}

// userEntry is one user's roles. Immutable once published: a refresh
// publishes a new entry.
type userEntry struct {
	// The warm check's fields first, in the entry's first cache line,
	// the name's bytes among them; then its small set in the lines after.

	// marks moves after a role entry of this entry dies (the entry is
	// among that role entry's members: see Cache.killLocked); seen is
	// marks when every role entry was last found live (noMark until
	// then). While they are equal, the warm check looks no further: it
	// reads them in the line it reads anyway, so a change to one role
	// costs the checks of the users who do not hold it nothing.
	marks atomic.Uint64
	seen  atomic.Uint64
	used  atomic.Uint32 // the budget's clock at the last use
	// gone: the entry left the users map (set under Cache.mu before the
	// removal returns), so a check that found it in the index just
	// before must not answer with it.
	gone atomic.Bool
	// anyLarge: the user's global roles have sets past small (large), so
	// a no goes on there; told in the first line, so that most users' no
	// ends on it.
	anyLarge bool
	// key holds the name's bytes when they fit (name then points at it):
	// the index compares them here, in the line the check reads anyway,
	// rather than in one more line elsewhere for every check.
	key [nameInline]byte
	// small is the effective set of the global roles in the warm check's
	// form (see small.go), or a copy of the largest of them small enough
	// for it when some are too large to copy (see mergeUser); empty when
	// none is. The warm check's first look, its only one for most users,
	// made in the entry itself: a set of its own, allocated apart, was
	// one more line and one more page a check had to wait for, and after
	// sustained changes the rebuilt sets lay apart from their entries.
	// Its filter (small.bloom) ends the entry's first line.
	small small

	// large are the global roles' other sets, largest first, looked in
	// when small says no; nil for most users (then anyLarge is false).
	large  []map[string]struct{}
	name   string // the map key (see key), kept so guards can point at it (InternUser)
	global []*roleEntry
	// scoped are the roles held in one scope only (nil when none; see
	// scoped.go), scopedRoles their entries in the order of scoped.names.
	scoped      *scopeIndex
	scopedRoles []*roleEntry
	bytes       int64 // what the entry is counted as in the budget
	// memo holds merged where answers (see where.go), memoBytes their
	// size (set under Cache.mu, see remember).
	memo      atomic.Pointer[whereMemo]
	memoBytes atomic.Int64
	// next is when a membership the entry was built from starts or ends
	// (Unix nanoseconds; 0: none will): see boundary.go.
	next int64
}

// nameInline is the longest name kept in the entry's first line; a
// longer one is a copy of its own.
const nameInline = 31 // with the fields before it, 56 bytes: the filter ends the line

// size is what the entry is counted as in the budget now: its own bytes
// and what it remembered since.
func (u *userEntry) size() int64 { return u.bytes + u.memoBytes.Load() }

// noMark is seen before the entry's role entries were first found live.
const noMark = ^uint64(0)

// newUserEntry returns the entry for user with these roles (scopedRoles
// the entries of scoped.names, in that order), its merged set and size
// filled in.
func newUserEntry(name string, global []*roleEntry, scoped *scopeIndex, scopedRoles []*roleEntry) *userEntry {
	u := &userEntry{global: global, scoped: scoped, scopedRoles: scopedRoles}
	// The entry's own copy of the name: the maps' keys point at it, and
	// a caller's string (part of a larger buffer, perhaps) is not kept.
	if len(name) <= nameInline {
		n := copy(u.key[:], name)
		u.name = unsafe.String(&u.key[0], n)
	} else {
		u.name = strings.Clone(name)
	}
	m := mergeUser(global)
	if m.merged != nil {
		u.small.fill(m.merged)
	} else if m.small != nil {
		u.small = *m.small
	}
	u.large, u.anyLarge = m.large, m.large != nil
	u.bytes = userBytes + smallBytes(0) + int64(len(name)) + m.owned + (refBytes+memberBytes)*int64(len(global)) + moreBytes*int64(max(len(m.large)-1, 0))
	if scoped != nil {
		u.bytes += scoped.bytes + (refBytes+memberBytes)*int64(len(scopedRoles))
	}
	u.seen.Store(noMark)
	return u
}

// roleEntry is one role's effective permissions, shared by its members:
// the union of its parts.
type roleEntry struct {
	name string
	// parts are the sets the role's effective permissions are made of
	// (see roleParts), each shared with every role entry holding the same
	// set: its sources' grants, the small ones merged.
	parts   []*permSet
	bytes   int64    // the entry's own size in the budget, its sets apart
	sources []string // roles the set was built from, name included
	// next is when a grant the set was built from starts or ends (Unix
	// nanoseconds; 0: none will): see boundary.go.
	next int64
	// members are the user entries published with this entry among
	// their roles (some since replaced: see enlistLocked): marked when it
	// dies, and renewed. Guarded by Cache.mu.
	members []*userEntry
	// dead: an invalidation reached this entry (or it was never
	// published); users pointing at it must look the role up again.
	dead atomic.Bool
	// killedAt: the role epoch when it died (set before dead). A check
	// that began at an epoch below it may still use the entry (the change
	// overlapped the check); one that began at or after it may not.
	killedAt atomic.Uint64
}

// usableSince reports whether every role entry of u may answer a check
// that began at role epoch since: live, or killed after the check began.
func (u *userEntry) usableSince(since uint64) bool {
	ok := func(rs []*roleEntry) bool {
		for _, r := range rs {
			if r.dead.Load() && r.killedAt.Load() <= since {
				return false
			}
		}
		return true
	}
	return ok(u.global) && ok(u.scopedRoles)
}

// hashName hashes a map key straight with the runtime's string hash (the
// map's default goes through a generic type hash, a fifth of a warm check).
func hashName(s string, seed uint64) uint64 { return maphash.String(setSeed, s) ^ seed }

// New returns an empty cache reading through load, its entries counted in
// budget, counting time bounds by clk (nil: the system clock).
func New(load Loader, budget *Budget, clk clock.Clock) *Cache {
	return NewWith(load, budget, Options{Clock: clk})
}

// NewWith is New with the miss path's gate and layers (see Options).
func NewWith(load Loader, budget *Budget, o Options) *Cache {
	c := &Cache{
		load:   load,
		budget: budget,
		clock:  clock.Or(o.Clock),
		admit:  o.Admit,
		renew:  o.Renew,
		users:  xsync.NewMapOfWithHasher[string, *userEntry](hashName),
		roles:  xsync.NewMapOfWithHasher[string, *roleEntry](hashName),

		dependents: map[string][]*roleEntry{},
		sets:       map[uint64][]*permSet{},
	}
	c.miss = c.wrap(o.Layers)
	c.index.Store(newUserIndex(0))
	budget.register(c)
	return c
}

// lookup finds the user's entry: in the index, or else (a check that
// raced a change to it) in the users map.
func (c *Cache) lookup(user string) (*userEntry, bool) {
	if u := c.index.Load().find(user); u != nil && !u.gone.Load() {
		return u, true
	}
	return c.users.Load(user)
}

// Allowed reports whether the user holds perm through a global role or,
// when scope is not empty, through a role held in that scope. A warm user
// is answered without a lock or an allocation; a miss reads the store
// through the Loader (once for concurrent misses of one key) and the
// layers. It is Check for names already in the store's form and valid:
// no second look, no Admit, no name check.
func (c *Cache) Allowed(ctx context.Context, user, scope, perm string) (bool, error) {
	return c.answer(ctx, Query{Kind: Permission, Scope: scope, User: user, Name: perm})
}

// answer is q looked at once, then, when that misses, the miss path's
// store read.
func (c *Cache) answer(ctx context.Context, q Query) (bool, error) {
	ok, found, warm := c.look(q)
	if warm {
		return ok, nil
	}
	q.found = found
	return c.miss(ctx, q)
}

// Cached is Allowed's hit path alone: warm is false when the answer needs
// the store (the user is not cached, or a role set it needs was dropped).
// For callers that do their own checks before a miss.
func (c *Cache) Cached(user, scope, perm string) (allowed, warm bool) {
	// lookup, written out: the hit path saves a call.
	u := c.index.Load().find(user)
	if u == nil || u.gone.Load() {
		var ok bool
		if u, ok = c.users.Load(user); !ok {
			return false, false
		}
	}
	// No role entry of the user died since the last look (the entry's
	// own marks), or every one is live: then the mark is seen.
	if m := u.marks.Load(); u.seen.Load() != m {
		if !u.live() {
			return false, false
		}
		u.seen.Store(m)
	}
	c.touch(u)
	if u.globally(perm) {
		return true, true
	}
	if scope != "" {
		for _, r := range u.scoped.rolesIn(scope) {
			if u.scopedRoles[r].allows(perm) {
				return true, true
			}
		}
	}
	return false, true
}

// live reports whether every role entry of u is live. Read u.marks
// before it: a role entry that dies marks its members after it is marked
// dead, so an entry found live under a mark was live when that mark was.
func (u *userEntry) live() bool {
	for _, r := range u.global {
		if r.dead.Load() {
			return false
		}
	}
	for _, r := range u.scopedRoles {
		if r.dead.Load() {
			return false
		}
	}
	return true
}

// CachedRole is HasRole's hit path alone; warm is false when the user is
// not cached.
func (c *Cache) CachedRole(user, scope, role string) (has, warm bool) {
	u, ok := c.lookup(user)
	if !ok {
		return false, false
	}
	c.touch(u)
	return u.hasRole(scope, role), true
}

// HasRole reports whether the user holds role globally or, when scope is
// not empty, in that scope; from the same entries as Allowed, and like it
// for names already in the store's form.
func (c *Cache) HasRole(ctx context.Context, user, scope, role string) (bool, error) {
	// Membership is the user entry's own data: a dead role entry still
	// names a role the user holds.
	return c.answer(ctx, Query{Kind: Role, Scope: scope, User: user, Name: role})
}

// InternUser points at the user's name inside its cache entry, so that a
// guard can hand the user on without copying the string into an
// interface; nil when the user is not cached.
func (c *Cache) InternUser(user string) *string {
	u, ok := c.lookup(user)
	if !ok {
		return nil
	}
	return &u.name
}

// grants answers from the entry as it is, dead role entries included.
func (u *userEntry) grants(scope, perm string) bool {
	if u.globally(perm) {
		return true
	}
	if scope != "" {
		for _, r := range u.scoped.rolesIn(scope) {
			if u.scopedRoles[r].allows(perm) {
				return true
			}
		}
	}
	return false
}

// globally reports whether u's global roles grant perm.
func (u *userEntry) globally(perm string) bool {
	if u.small.has(fingerprint(perm), perm) {
		return true
	}
	if !u.anyLarge {
		// Most users' no ends here, on the entry's first lines.
		return false
	}
	for _, m := range u.large {
		if _, ok := m[perm]; ok {
			return true
		}
	}
	return false
}

// allows reports whether the role's effective permissions hold perm.
func (r *roleEntry) allows(perm string) bool {
	for _, s := range r.parts {
		if _, ok := s.perms[perm]; ok {
			return true
		}
	}
	return false
}

func (u *userEntry) hasRole(scope, role string) bool {
	for _, r := range u.global {
		if r.name == role {
			return true
		}
	}
	if scope != "" {
		for _, r := range u.scoped.rolesIn(scope) {
			if u.scoped.names[r] == role {
				return true
			}
		}
	}
	return false
}

// touch records a use for the budget's eviction. It writes only when the
// clock moved, so cores checking one user do not fight over its line.
func (c *Cache) touch(u *userEntry) {
	if now := c.budget.clock.Load(); u.used.Load() != now {
		u.used.Store(now)
	}
}

// Len is the number of users cached.
func (c *Cache) Len() int { return c.users.Size() }

// Roles is the number of role sets cached.
func (c *Cache) Roles() int { return c.roles.Size() }

// Building is the number of builds reading the store right now. A caller
// that follows other replicas' changes must keep following a cache that is
// empty but building, or a build that read before a change could publish
// after it unnoticed.
func (c *Cache) Building() int { return int(c.building.Load()) }
