package cache

import "context"

// fresh returns an entry for user whose role sets were all live when
// looked up: the cached one, refreshed where an invalidation reached its
// roles, or one built from the store.
//
// An entry shared through a user build that began before this check may
// hold role sets invalidated before this check began (the user's epoch
// does not move on a grant): those are looked up again, so the answer
// never predates a change that completed before the check started.
func (c *Cache) fresh(ctx context.Context, user string) (*userEntry, error) {
	since := c.roleEpoch.Load()
	u, ok := c.users.Load(user)
	if !ok {
		epoch := c.userEpoch.Load()
		var err error
		u, err = c.userFlights.do(ctx, user, epoch, func() (*userEntry, error) {
			// A build that ended between our miss and taking the flight
			// has published the entry: use it rather than read again. (An
			// invalidation since would have removed it.)
			if u, ok := c.users.Load(user); ok {
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
	global, byScope, err := c.load.UserRoles(ctx, user)
	if err != nil {
		return nil, err
	}
	roles, err := c.roleEntries(ctx, global)
	if err != nil {
		return nil, err
	}
	var scoped map[string][]*roleEntry
	if len(byScope) > 0 {
		scoped = make(map[string][]*roleEntry, len(byScope))
		for s, names := range byScope {
			if scoped[s], err = c.roleEntries(ctx, names); err != nil {
				return nil, err
			}
		}
	}
	u := newUserEntry(user, roles, scoped)
	u.used.Store(c.budget.clock.Load())
	c.mu.Lock()
	published := !c.closed && c.userEpoch.Load() == epoch
	if published {
		entries, bytes := int64(1), u.bytes
		if old, had := c.users.LoadAndStore(user, u); had {
			old.gone.Store(true)
			entries, bytes = 0, u.bytes-old.bytes // replaced, not added
		}
		c.budget.count(c, entries, bytes)
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
	global, err := c.refreshed(ctx, u.global)
	if err != nil {
		return nil, err
	}
	var scoped map[string][]*roleEntry
	if u.byScope != nil {
		scoped = make(map[string][]*roleEntry, len(u.byScope))
		for s, rs := range u.byScope {
			if scoped[s], err = c.refreshed(ctx, rs); err != nil {
				return nil, err
			}
		}
	}
	n := newUserEntry(u.name, global, scoped)
	n.used.Store(u.used.Load())
	replaced := false
	c.mu.Lock()
	if !c.closed {
		// Only in u's place: a user invalidation that dropped u must not
		// see it come back.
		c.users.Compute(u.name, func(old *userEntry, loaded bool) (*userEntry, bool) {
			if loaded && old == u {
				replaced = true
				u.gone.Store(true)
				return n, false
			}
			return old, !loaded
		})
		if replaced {
			c.budget.count(c, 0, n.bytes-u.bytes)
		}
	}
	c.mu.Unlock()
	if replaced {
		c.budget.settle()
	}
	return n, nil
}

func (c *Cache) refreshed(ctx context.Context, rs []*roleEntry) ([]*roleEntry, error) {
	out := make([]*roleEntry, len(rs))
	for i, r := range rs {
		if !r.dead.Load() {
			out[i] = r
			continue
		}
		var err error
		if out[i], err = c.role(ctx, r.name); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (c *Cache) roleEntries(ctx context.Context, names []string) ([]*roleEntry, error) {
	out := make([]*roleEntry, len(names))
	for i, name := range names {
		var err error
		if out[i], err = c.role(ctx, name); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// role returns the role's live entry, building it when missing or dead.
func (c *Cache) role(ctx context.Context, name string) (*roleEntry, error) {
	if r, ok := c.roles.Load(name); ok && !r.dead.Load() {
		return r, nil
	}
	epoch := c.roleEpoch.Load()
	return c.roleFlights.do(ctx, name, epoch, func() (*roleEntry, error) {
		// As for users: a build that ended since our miss.
		if r, ok := c.roles.Load(name); ok && !r.dead.Load() {
			return r, nil
		}
		return c.buildRole(ctx, name, epoch)
	})
}

// buildRole reads the role's effective set and publishes it unless a role
// invalidation happened since epoch was read. An entry not published is
// born dead: whoever holds it uses it for the check at hand only.
func (c *Cache) buildRole(ctx context.Context, name string, epoch uint64) (*roleEntry, error) {
	c.building.Add(1)
	defer c.building.Add(-1)
	perms, sources, err := c.load.RoleEffective(ctx, name)
	if err != nil {
		return nil, err
	}
	r := &roleEntry{name: name, sources: sources, bytes: roleBytes + int64(len(name)), shard: shardOf(name)}
	for _, s := range sources {
		r.bytes += sourceBytes + int64(len(s))
	}
	perms, hash := sortedSet(perms)
	// A set already interned is shared, and the names just read are
	// dropped; otherwise the set is built here, outside the lock.
	c.mu.Lock()
	r.set = c.findSetLocked(perms, hash)
	c.mu.Unlock()
	if r.set == nil {
		r.set = newPermSet(perms, hash)
	}
	c.mu.Lock()
	published := !c.closed && c.roleEpoch.Load() == epoch
	if published {
		var bytes int64
		r.set, bytes = c.retainSetLocked(r.set, perms)
		entries, bytes := int64(1), bytes+r.bytes
		if old, had := c.roles.LoadAndStore(name, r); had {
			c.killLocked(old, false)
			c.releaseSetLocked(old.set)
			entries, bytes = 0, bytes-old.bytes
		}
		c.budget.count(c, entries, bytes)
		for _, s := range sources {
			if s != name {
				c.dependents[s] = append(c.dependents[s], r)
			}
		}
	} else {
		// Some invalidation moved the epoch past the one this build read
		// under: it died then, at the latest.
		r.killedAt.Store(epoch + 1)
		r.dead.Store(true)
	}
	c.mu.Unlock()
	if published {
		c.budget.settle()
	}
	return r, nil
}
