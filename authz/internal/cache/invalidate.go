package cache

import "slices"

// InvalidateRole drops every cached role set built from role: its own and,
// with inheritance, those of the roles inheriting from it. Call it after a
// grant or revoke on role (or a change to its inheritance links) is
// committed. Users keep their entries; their next check looks the role up
// again.
func (c *Cache) InvalidateRole(role string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.renewLocked(c.invalidateRoleLocked(role, true))
}

// invalidateRoleLocked kills the sets built from role and returns those
// that were in use (live), role's own among them only when self, and the
// user entries that held them (for renewal).
func (c *Cache) invalidateRoleLocked(role string, self bool) (killed []*roleEntry, members []*userEntry) {
	c.roleEpoch.Add(1)
	if r, ok := c.roles.Load(role); ok {
		live := !r.dead.Load()
		held := c.killLocked(r, true)
		if self && live {
			killed, members = append(killed, r), append(members, held...)
		}
	}
	deps := c.dependents[role]
	delete(c.dependents, role) // first: killLocked edits the index in place
	for _, r := range deps {
		live := !r.dead.Load()
		held := c.killLocked(r, true)
		if live {
			killed, members = append(killed, r), append(members, held...)
		}
	}
	return killed, members
}

// DeleteRole is InvalidateRole for a role deleted: its members' entries,
// which name it, are dropped too.
func (c *Cache) DeleteRole(role string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	// The roles inheriting from it changed; role itself is gone.
	c.renewLocked(c.invalidateRoleLocked(role, false))
	c.userEpoch.Add(1)
	c.users.Range(func(_ string, u *userEntry) bool {
		if u.mentions(role) && c.deleteUserLocked(u) {
			c.budget.count(c, -1, -u.size())
		}
		return true
	})
}

// InvalidateUser drops the user's entry: call it after a change to the
// user's memberships is committed.
func (c *Cache) InvalidateUser(user string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.userEpoch.Add(1)
	if old, had := c.users.Load(user); had && c.deleteUserLocked(old) {
		c.budget.count(c, -1, -old.size())
	}
}

// Flush drops everything: used when the cache can no longer trust what it
// holds (a lost listener, changes it cannot explain).
func (c *Cache) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
}

func (c *Cache) flushLocked() {
	c.userEpoch.Add(1)
	c.roleEpoch.Add(1)
	c.roles.Range(func(_ string, r *roleEntry) bool {
		r.killedAt.Store(c.roleEpoch.Load())
		r.dead.Store(true)
		return true
	})
	c.roles.Clear()
	c.users.Range(func(_ string, u *userEntry) bool {
		u.gone.Store(true)
		return true
	})
	c.users.Clear()
	c.index.Store(newUserIndex(0))
	clear(c.dependents)
	clear(c.sets)
	c.clearDueLocked()
	clear(c.renewRoles)
	clear(c.renewUsers)
	// Every count of this cache moves under mu, so this is all it holds.
	c.budget.count(c, -c.entries.Load(), -c.bytes.Load())
}

// Close stops caching for good and gives the cache's entries back to the
// budget: from then on every check reads the store. Used when nothing
// keeps the cache right any more (its client was dropped, or rolegate
// closed).
func (c *Cache) Close() {
	c.mu.Lock()
	c.closed = true
	c.closedFlag.Store(true)
	c.flushLocked()
	c.mu.Unlock()
	c.budget.unregister(c)
}

// Closed reports whether Close was called.
func (c *Cache) Closed() bool { return c.closedFlag.Load() }

// killLocked marks r dead and forgets it: from the dependents index and,
// when fromMap, from the role map (if it is still the entry there). It
// returns the user entries it marked (none when r was dead already): r
// keeps no list of them, so that a dead set does not hold the entries
// replaced since, nor, through their dead sets, theirs, in a chain as
// long as the changes made.
func (c *Cache) killLocked(r *roleEntry, fromMap bool) (members []*userEntry) {
	if !r.dead.Load() {
		r.killedAt.Store(c.roleEpoch.Load())
		r.dead.Store(true)
		// After dead (see userEntry.live): the members' next checks look
		// at their role entries, and no other user's does.
		members, r.members = r.members, nil
		for _, u := range members {
			u.marks.Add(1)
		}
	}
	for _, s := range r.sources {
		if s == r.name {
			continue
		}
		deps := slices.DeleteFunc(c.dependents[s], func(d *roleEntry) bool { return d == r })
		if len(deps) == 0 {
			delete(c.dependents, s)
		} else {
			c.dependents[s] = deps
		}
	}
	if fromMap {
		deleted := false
		c.roles.Compute(r.name, func(old *roleEntry, loaded bool) (*roleEntry, bool) {
			deleted = loaded && old == r // delete only r itself
			return old, !loaded || deleted
		})
		if deleted {
			c.budget.count(c, -1, -r.bytes)
			c.releaseSetsLocked(r.parts)
		}
	}
	return members
}

// enlistLocked records u among the members of each of its live role
// entries, to be marked when one dies, and renewed; when all are live,
// the entry is marked seen, so that its first check looks no further. A
// role entry's list keeps the entries replaced since (gone) until it
// fills; it is then compacted (from 8 on), so it holds a few times its
// live members at most, and nothing once the set dies (killLocked).
// Called under c.mu when u is published, as every kill is.
func (c *Cache) enlistLocked(u *userEntry) {
	live := true
	enlist := func(rs []*roleEntry) {
		for _, r := range rs {
			if r.dead.Load() {
				live = false
				continue
			}
			if n := len(r.members); n > 0 && r.members[n-1] == u {
				continue // a role held both globally and in a scope
			}
			if n := len(r.members); n == cap(r.members) && n >= 8 {
				kept := r.members[:0]
				for _, m := range r.members {
					if !m.gone.Load() {
						kept = append(kept, m)
					}
				}
				clear(r.members[len(kept):])
				r.members = kept
				if len(kept) > n/2 {
					// Room for as many again, so that the next compaction
					// is as many appends away.
					r.members = slices.Grow(r.members, n)
				}
			}
			r.members = append(r.members, u)
		}
	}
	enlist(u.global)
	enlist(u.scopedRoles)
	if live {
		u.seen.Store(u.marks.Load())
	}
}

// mentions reports whether the entry names role, in any scope.
func (u *userEntry) mentions(role string) bool {
	return u.hasRole("", role) || u.scoped.holds(role)
}
