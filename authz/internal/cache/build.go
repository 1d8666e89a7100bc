package cache

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// fresh returns an entry for user whose role sets were all live when
// looked up: the cached one, refreshed where an invalidation reached its
// roles, or one built from the store.
//
// An entry shared through a user build that began before this check may
// hold role sets invalidated before this check began (the user's epoch
// does not move on a grant): those are looked up again, so the answer
// never predates a change that completed before the check started.
//
// found is the user's entry the check's warm look found unfit, or nil
// when it found none: the user is not looked up again. Still in the users
// map after the check began (not gone), found is the entry to refresh;
// otherwise the user is built, and the build looks once more for an entry
// published since (inside the single flight, so that a build ending just
// before does not make this one read the store again).
func (c *Cache) fresh(ctx context.Context, user string, found *userEntry) (*userEntry, error) {
	since := c.roleEpoch.Load()
	u, ok := found, found != nil && !found.gone.Load()
	if ok && passed(u.next, c.now()) {
		ok = false // its boundary came, and the timer has not said so yet
	}
	if !ok {
		epoch := c.userEpoch.Load()
		var err error
		u, err = c.userFlights.do(ctx, user, epoch, func() (*userEntry, error) {
			// A build that ended between our miss and taking the flight
			// has published the entry: use it rather than read again. (An
			// invalidation since would have removed it.)
			if u, ok := c.users.Load(user); ok && !passed(u.next, c.now()) {
				return u, nil
			}
			return c.buildUser(ctx, user, epoch)
		})
		if err != nil {
			return nil, err
		}
	}
	if !u.usableSince(since) {
		// One round is enough: refresh keeps the sets live now and looks
		// the others up now, all after this check began. (Looping until
		// every set is usable could spin: an eviction kills at the current
		// epoch, which a check begun at that epoch counts as before it.)
		return c.refresh(ctx, u)
	}
	return u, nil
}

// buildUser reads the user's roles, looks up (or builds) each role's set,
// and publishes the entry unless a user invalidation happened since epoch
// was read.
func (c *Cache) buildUser(ctx context.Context, user string, epoch uint64) (*userEntry, error) {
	c.building.Add(1)
	defer c.building.Add(-1)
	global, scoped, next, err := c.load.UserRoles(ctx, user, c.clock.Now())
	if err != nil {
		return nil, err
	}
	// The scoped memberships indexed (scoped.go): the roles held in some
	// scope are a few names however many scopes hold them.
	index := newScopeIndex(scoped)
	// Every role the user holds, global or scoped, looked up (and the
	// missing ones read) together. (A copy: global is the Loader's, not
	// ours to grow.)
	names := slices.Clone(global)
	if index != nil {
		names = append(names, index.names...)
	}
	entries, err := c.roleEntries(ctx, names)
	if err != nil {
		return nil, err
	}
	pick := func(names []string) []*roleEntry {
		out := make([]*roleEntry, len(names))
		for i, n := range names {
			out[i] = entries[n]
		}
		return out
	}
	var scopedRoles []*roleEntry
	if index != nil {
		scopedRoles = pick(index.names)
	}
	u := newUserEntry(user, pick(global), index, scopedRoles)
	u.next = nanos(next)
	u.used.Store(c.budget.clock.Load())
	c.mu.Lock()
	// Not once its boundary has come: it answers the check at hand only.
	published := !c.closed && c.userEpoch.Load() == epoch && !passed(u.next, c.now())
	if published {
		entries, bytes := int64(1), u.bytes
		if old, had := c.storeUserLocked(u); had {
			old.gone.Store(true)
			entries, bytes = 0, u.bytes-old.size() // replaced, not added
		}
		c.budget.count(c, entries, bytes)
		c.enlistLocked(u)
		if u.next != 0 {
			c.scheduleLocked(boundary{at: u.next, u: u})
		}
	}
	c.mu.Unlock()
	if published {
		c.budget.settle()
	}
	return u, nil
}

// refresh replaces the dead role entries of u with live ones, and
// publishes the result in u's place unless u was dropped meanwhile.
func (c *Cache) refresh(ctx context.Context, u *userEntry) (*userEntry, error) {
	// The dead ones, global or scoped, looked up (and read) together.
	var dead []string
	collect := func(rs []*roleEntry) {
		for _, r := range rs {
			if r.dead.Load() {
				dead = append(dead, r.name)
			}
		}
	}
	collect(u.global)
	collect(u.scopedRoles)
	// Renewal has usually published them already: then they are taken
	// from the role map as found, with no read and no lookup table.
	found := make([]*roleEntry, len(dead))
	now := c.now()
	for i, name := range dead {
		r, ok := c.roles.Load(name)
		if !ok || r.dead.Load() || passed(r.next, now) {
			live, err := c.roleEntries(ctx, dead)
			if err != nil {
				return nil, err
			}
			for j, name := range dead {
				found[j] = live[name]
			}
			break
		}
		found[i] = r
	}
	refreshed := func(rs []*roleEntry) []*roleEntry {
		if rs == nil {
			return nil
		}
		out := make([]*roleEntry, len(rs))
		for i, r := range rs {
			out[i] = r
			if j := slices.Index(dead, r.name); j >= 0 && found[j] != nil {
				out[i] = found[j]
			}
		}
		return out
	}
	// The same memberships: the scope index is shared, only the role
	// entries change.
	n := newUserEntry(u.name, refreshed(u.global), u.scoped, refreshed(u.scopedRoles))
	n.next = u.next
	n.used.Store(u.used.Load())
	replaced := false
	c.mu.Lock()
	if !c.closed {
		// Only in u's place: a user invalidation that dropped u must not
		// see it come back.
		// (Every write to the users map is made under c.mu. The key is
		// the new entry's name, which points into the entry: a key of
		// the old one's would keep it alive.)
		if cur, ok := c.users.Load(u.name); ok && cur == u {
			replaced = true
			c.storeUserLocked(n)
			u.gone.Store(true)
		}
		if replaced {
			c.budget.count(c, 0, n.bytes-u.size())
			c.enlistLocked(n)
			if n.next != 0 {
				c.scheduleLocked(boundary{at: n.next, u: n})
			}
		}
	}
	c.mu.Unlock()
	if replaced {
		c.budget.settle()
	}
	return n, nil
}

// roleEntries returns a live entry for each of names (by name): the cached
// ones, and the others built from the store, all of them in one read
// (Loader.RoleGrants) rather than one per role. Concurrent misses of a
// role still read it once: a role whose build is already running under
// this epoch is waited for, not read again.
func (c *Cache) roleEntries(ctx context.Context, names []string) (map[string]*roleEntry, error) {
	got := make(map[string]*roleEntry, len(names))
	var missing []string
	asked := make(map[string]bool, len(names))
	now := c.now()
	for _, name := range names {
		if asked[name] {
			continue
		}
		asked[name] = true
		if r, ok := c.roles.Load(name); ok && !r.dead.Load() && !passed(r.next, now) {
			got[name] = r
			continue
		}
		missing = append(missing, name)
	}
	if len(missing) == 0 {
		return got, nil
	}
	epoch := c.roleEpoch.Load()
	built, err := c.roleFlights.doMany(ctx, missing, epoch,
		func(keys []string) ([]*roleEntry, error) { return c.buildRoles(ctx, keys, epoch) },
		func(key string) (*roleEntry, error) {
			rs, err := c.buildRoles(ctx, []string{key}, epoch)
			if err != nil {
				return nil, err
			}
			return rs[0], nil
		})
	if err != nil {
		return nil, err
	}
	for i, name := range missing {
		got[name] = built[i]
	}
	return got, nil
}

// buildRoles reads the grants making the sets of the roles names
// (distinct) in one Loader call and publishes each (see publishRole); it returns their
// entries in the order of names.
func (c *Cache) buildRoles(ctx context.Context, names []string, epoch uint64) ([]*roleEntry, error) {
	c.building.Add(1)
	defer c.building.Add(-1)
	out := make([]*roleEntry, len(names))
	at := make(map[string]int, len(names))
	var read []string
	now := c.clock.Now()
	for i, name := range names {
		// As for users: a build that ended since our miss.
		if r, ok := c.roles.Load(name); ok && !r.dead.Load() && !passed(r.next, now.UnixNano()) {
			out[i] = r
			continue
		}
		at[name] = i
		read = append(read, name)
	}
	if len(read) == 0 {
		return out, nil
	}
	memo := setMemo{}
	err := c.load.RoleGrants(ctx, read, now, func(name string, sources []string, grants [][]string, next time.Time) error {
		i, ok := at[name]
		if !ok || out[i] != nil {
			return fmt.Errorf("cache: the store answered for role %q, not asked for or answered twice", name)
		}
		if len(grants) != len(sources) {
			return fmt.Errorf("cache: the store answered %d grant lists for the %d sources of role %q", len(grants), len(sources), name)
		}
		out[i] = c.publishRole(name, epoch, sources, grants, nanos(next), memo)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, r := range out {
		if r == nil {
			return nil, fmt.Errorf("cache: the store did not answer for role %q", names[i])
		}
	}
	return out, nil
}

// publishRole makes the entry of a role from its sources' grants as
// read, and publishes it unless a role invalidation happened since epoch
// was read. An entry not published is born dead: whoever holds it uses it
// for the check at hand only.
func (c *Cache) publishRole(name string, epoch uint64, sources []string, grants [][]string, next int64, memo setMemo) *roleEntry {
	r := c.makeRole(name, sources, grants, next, memo)
	c.mu.Lock()
	published := c.publishRoleLocked(r, epoch)
	c.mu.Unlock()
	if published {
		c.budget.settle()
	}
	return r
}

// makeRole makes the entry of a role from its sources' grants as read,
// not yet published.
func (c *Cache) makeRole(name string, sources []string, grants [][]string, next int64, memo setMemo) *roleEntry {
	r := &roleEntry{name: name, sources: sources, bytes: roleBytes + int64(len(name)), next: next}
	for _, s := range sources {
		r.bytes += sourceBytes + int64(len(s))
	}
	r.parts = c.roleParts(grants, memo)
	r.bytes += refBytes * int64(len(r.parts))
	return r
}

// publishRoleLocked publishes r unless a role invalidation happened since
// epoch was read (then r is dead), and reports whether it did; the caller
// settles the budget after c.mu. Under c.mu.
func (c *Cache) publishRoleLocked(r *roleEntry, epoch uint64) bool {
	// Not once its boundary has come: it answers the check at hand only.
	if c.closed || c.roleEpoch.Load() != epoch || passed(r.next, c.now()) {
		// Some invalidation moved the epoch past the one this build read
		// under: it died then, at the latest.
		r.killedAt.Store(epoch + 1)
		r.dead.Store(true)
		return false
	}
	entries, bytes := int64(1), r.bytes
	for i, p := range r.parts {
		var held int64
		r.parts[i], held = c.retainSetLocked(p)
		bytes += held
	}
	if old, had := c.roles.LoadAndStore(r.name, r); had {
		c.killLocked(old, false)
		c.releaseSetsLocked(old.parts)
		entries, bytes = 0, bytes-old.bytes
	}
	c.budget.count(c, entries, bytes)
	for _, s := range r.sources {
		if s != r.name {
			c.dependents[s] = append(c.dependents[s], r)
		}
	}
	if r.next != 0 {
		c.scheduleLocked(boundary{at: r.next, r: r})
	}
	return true
}
