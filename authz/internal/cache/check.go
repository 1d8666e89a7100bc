package cache

import (
	"context"
	"encoding/binary"
	"unsafe"

	"github.com/rolegate/rolegate/authz/internal/clock"
	"github.com/rolegate/rolegate/middleware"
)

// A check, from first look to answer, stays in this room: Check looks
// once; on a warm no or a miss it looks again only when the names' NFC
// forms (the store's) differ from them; then the miss path: Options.Admit,
// the name check (a name that could never be stored is not found and
// never cached), and the store read through the layers the cache was
// given (tracing, metrics), once for concurrent misses of one user. The
// entry the first look found unfit (a role set of it died) is handed on,
// so the miss does not look the user up again.

// Kind is what a check asks: a permission, or a role.
type Kind uint8

const (
	Permission Kind = iota
	Role
)

// String is the kind's name on a span: "permission" or "role".
func (k Kind) String() string {
	if k == Role {
		return "role"
	}
	return "permission"
}

// Query is a check on the miss path: does User hold Name (a permission or
// a role, by Kind) through a global membership or, when Scope is not
// empty, one held in Scope. Names are the store's (NFC) forms.
type Query struct {
	Kind              Kind
	Scope, User, Name string
	// found is the user's entry the warm look found unfit (a role set
	// of it died), nil when the user was not cached.
	found *userEntry
}

// Miss answers a query the cache could not answer from memory.
type Miss func(ctx context.Context, q Query) (bool, error)

// Layer wraps the miss path: it runs next, and may time, count or trace
// it. A nil Layer is skipped.
type Layer func(next Miss) Miss

// Options are what a cache is given beside its Loader and Budget.
type Options struct {
	// Clock counts time bounds (nil: the system clock).
	Clock clock.Clock
	// Admit is asked before a miss goes on (nil: always): its error ends
	// the check. The front door refuses there once it is closed.
	Admit func() error
	// Layers wrap the miss's store read, the first outermost.
	Layers []Layer
	// Renew reads a role set again as soon as an invalidation kills it
	// while in use, off the checking path (see renew.go).
	Renew bool
}

// Check answers whether user holds perm through a global role or, when
// scope is not empty, through a role held in that scope. warm reports an
// answer from memory: a warm user is answered without a lock or an
// allocation. Otherwise the miss path (see above) reads the store; its
// errors are the Loader's, Admit's, or the context's.
func (c *Cache) Check(ctx context.Context, scope, user, perm string) (allowed, warm bool, err error) {
	// Cached's look, written out: the warm check saves a call.
	u := c.index.Load().find(user)
	if u == nil || u.gone.Load() {
		var ok bool
		if u, ok = c.users.Load(user); !ok {
			return c.missed(ctx, Query{Kind: Permission, Scope: scope, User: user, Name: perm}, false, false)
		}
	}
	if m := u.marks.Load(); u.seen.Load() != m {
		if !u.live() {
			return c.missed(ctx, Query{Kind: Permission, Scope: scope, User: user, Name: perm, found: u}, false, false)
		}
		u.seen.Store(m)
	}
	c.touch(u)
	if u.globally(perm) {
		return true, true, nil
	}
	if scope != "" {
		for _, r := range u.scoped.rolesIn(scope) {
			if u.scopedRoles[r].allows(perm) {
				return true, true, nil
			}
		}
	}
	// A no for ASCII names (NFC already) is the answer; the user's name is
	// the store's, since its entry was found under it.
	if orBytes(scope)|orBytes(perm) == 0 {
		return false, true, nil
	}
	return c.missed(ctx, Query{Kind: Permission, Scope: scope, User: user, Name: perm}, false, true)
}

// CheckRole is Check for a role: whether user is a member of role
// globally or, when scope is not empty, in scope. Membership is the user
// entry's own data, so a dead role set does not make it miss.
func (c *Cache) CheckRole(ctx context.Context, scope, user, role string) (has, warm bool, err error) {
	q := Query{Kind: Role, Scope: scope, User: user, Name: role}
	has, _, warm = c.look(q)
	if warm && (has || orBytes(scope)|orBytes(role) == 0) {
		return has, true, nil
	}
	return c.missed(ctx, q, has, warm)
}

// look is the warm look for q: the answer when warm, else the entry found
// unfit (nil when the user is not cached).
func (c *Cache) look(q Query) (ok bool, found *userEntry, warm bool) {
	if q.Kind == Role {
		u, cached := c.lookup(q.User)
		if !cached {
			return false, nil, false
		}
		c.touch(u)
		return u.hasRole(q.Scope, q.Name), nil, true
	}
	u, cached := c.lookup(q.User)
	if !cached {
		return false, nil, false
	}
	if !c.fit(u) {
		return false, u, false
	}
	c.touch(u)
	return u.grants(q.Scope, q.Name), nil, true
}

// fit reports whether every role entry of u is live, seeing its marks
// as the warm check does.
func (c *Cache) fit(u *userEntry) bool {
	if m := u.marks.Load(); u.seen.Load() != m {
		if !u.live() {
			return false
		}
		u.seen.Store(m)
	}
	return true
}

// missed goes on from the first look at q (its answer ok, warm): a no or
// a miss is looked at again with the names' NFC forms when they differ;
// then, still a miss, the miss path.
func (c *Cache) missed(ctx context.Context, q Query, ok, warm bool) (bool, bool, error) {
	// A warm entry was found under the user name as given, so that name
	// is the store's form already: only the other two need the look.
	if !ok && !(warm && ascii(q.Scope, "", q.Name) || ascii(q.Scope, q.User, q.Name)) {
		ns, nu, nn := middleware.NormalizeName(q.Scope), middleware.NormalizeName(q.User), middleware.NormalizeName(q.Name)
		if ns != q.Scope || nu != q.User || nn != q.Name {
			q.Scope, q.User, q.Name = ns, nu, nn
			ok, q.found, warm = c.look(q)
		}
	}
	if warm {
		return ok, true, nil
	}
	if c.admit != nil {
		if err := c.admit(); err != nil {
			return false, false, err
		}
	}
	if !middleware.ValidName(q.User) {
		// A junk name is answered without the store or the cache, so
		// junk names cannot fill memory.
		return false, false, nil
	}
	ok, err := c.miss(ctx, q)
	return ok, false, err
}

// cold is the innermost step of the miss path: the user's entry, fresh
// (read from the store, or its dead role sets looked up again), and the
// answer from it.
func (c *Cache) cold(ctx context.Context, q Query) (bool, error) {
	u, err := c.fresh(ctx, q.User, q.found)
	if err != nil {
		return false, err
	}
	// Every role set of the entry was live after the check began, even
	// if one has been invalidated since (that change overlapped the check).
	if q.Kind == Role {
		return u.hasRole(q.Scope, q.Name), nil
	}
	return u.grants(q.Scope, q.Name), nil
}

// wrap builds the miss path: layers around cold, the first outermost.
func (c *Cache) wrap(layers []Layer) Miss {
	m := Miss(c.cold)
	for i := len(layers) - 1; i >= 0; i-- {
		if layers[i] != nil {
			m = layers[i](m)
		}
	}
	return m
}

// ascii reports whether every byte of the names is ASCII (hence NFC): the
// common case, told eight bytes at a time.
func ascii(scope, user, name string) bool {
	return orBytes(scope)|orBytes(user)|orBytes(name) == 0
}

// orBytes ORs the bytes of s together, eight at a time, and keeps the
// high bits: zero when every byte of s is ASCII.
func orBytes(s string) uint64 {
	var or uint64
	for len(s) >= 8 {
		or |= binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		or |= uint64(s[i])
	}
	return or & 0x8080808080808080
}
