package cache

import (
	"context"
	"slices"
	"time"
)

// Renewal: a grant or revoke kills the role sets built from its role, and
// every member's next check used to find one dead, read the role from the
// store again and build the member's entry anew, on the checking
// goroutine, in the middle of the host's requests. Under sustained writes
// that work was most of what a check lost. With Options.Renew, a role set
// that an invalidation kills while in use is read again at once by a
// goroutine of the cache's own (one read for every role killed meanwhile),
// and the entries of the users that held it are refreshed there too, so
// the members' next checks find everything live. Renewal is a build like
// any other: it takes a ticket and publishes only if no invalidation
// happened since, so it never makes an answer staler; when it fails or is
// late, the checks read and refresh for themselves as before.

// renewMaxRoles and renewMaxUsers bound what waits to be renewed: past
// them, the rest is left to the checks, so a storm of writes cannot grow
// the queue without bound.
const (
	renewMaxRoles = 4096
	renewMaxUsers = 1 << 16
)

// renewTimeout bounds one renewal's read of the store.
const renewTimeout = 5 * time.Second

// renewLocked queues the role sets an invalidation killed, and the users
// that held them, for renewal, and starts the renewing goroutine when
// none runs. Called under c.mu.
func (c *Cache) renewLocked(killed []*roleEntry) {
	if !c.renew || c.closed || len(killed) == 0 {
		return
	}
	if c.renewRoles == nil {
		c.renewRoles, c.renewUsers = map[string]struct{}{}, map[*userEntry]struct{}{}
	}
	for _, r := range killed {
		if len(c.renewRoles) < renewMaxRoles {
			c.renewRoles[r.name] = struct{}{}
		}
		for _, u := range r.members {
			if len(c.renewUsers) >= renewMaxUsers {
				break
			}
			if !u.gone.Load() {
				c.renewUsers[u] = struct{}{}
			}
		}
	}
	if !c.renewRuns {
		c.renewRuns = true
		go c.renewLoop()
	}
}

// renewLoop renews what is queued until nothing is, then ends: no
// goroutine is left behind by a cache nobody writes to.
func (c *Cache) renewLoop() {
	for {
		c.mu.Lock()
		if c.closed || len(c.renewRoles)+len(c.renewUsers) == 0 {
			clear(c.renewRoles)
			clear(c.renewUsers)
			c.renewRuns = false
			c.mu.Unlock()
			return
		}
		roles := make([]string, 0, len(c.renewRoles))
		for n := range c.renewRoles {
			roles = append(roles, n)
		}
		users := make([]*userEntry, 0, len(c.renewUsers))
		for u := range c.renewUsers {
			users = append(users, u)
		}
		clear(c.renewRoles)
		clear(c.renewUsers)
		c.mu.Unlock()
		c.renewNow(roles, users)
	}
}

// renewNow reads the roles again and refreshes the users' entries that
// still hold a dead role set. An error (the store unreachable, the Authz
// closed) is the checks' to meet: they read for themselves and fail
// closed.
func (c *Cache) renewNow(roles []string, users []*userEntry) {
	if c.admit != nil && c.admit() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), renewTimeout)
	defer cancel()
	if _, err := c.roleEntries(ctx, roles); err != nil {
		return
	}
	for _, u := range users {
		if u.gone.Load() || u.live() {
			continue
		}
		if _, err := c.refresh(ctx, u); err != nil {
			break
		}
	}
}

// enlistLocked records u among the members of each of its live role
// sets, for their renewal. A set's list keeps the entries replaced since
// (gone) until it fills; it is then compacted, so it holds at most about
// twice its live members. Called under c.mu when u is published.
func (c *Cache) enlistLocked(u *userEntry) {
	if !c.renew {
		return
	}
	enlist := func(rs []*roleEntry) {
		for _, r := range rs {
			if r.dead.Load() {
				continue
			}
			if n := len(r.members); n > 0 && r.members[n-1] == u {
				continue // a role held both globally and in a scope
			}
			if n := len(r.members); n == cap(r.members) && n >= 8 {
				live := r.members[:0]
				for _, m := range r.members {
					if !m.gone.Load() {
						live = append(live, m)
					}
				}
				clear(r.members[len(live):])
				r.members = live
				if len(live) > n/2 {
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
}
