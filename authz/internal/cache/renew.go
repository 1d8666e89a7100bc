package cache

import (
	"context"
	"fmt"
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

// readAheadMax is the most role sets InvalidateRoleRead reads before
// they die; past it, it leaves them to renewal.
const readAheadMax = 64

// renewTimeout bounds one renewal's read of the store.
const renewTimeout = 5 * time.Second

// renewLocked queues the role sets an invalidation killed, and the users
// that held them, for renewal, and starts the renewing goroutine when
// none runs. Called under c.mu.
func (c *Cache) renewLocked(killed []*roleEntry, members []*userEntry) {
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
	}
	for _, u := range members {
		if len(c.renewUsers) >= renewMaxUsers {
			break
		}
		if !u.gone.Load() {
			c.renewUsers[u] = struct{}{}
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

// InvalidateRoleRead is InvalidateRole for a change this process has
// just committed, with renewal on: the role sets the change kills are
// read again first, and take the dead ones' places in the same step as
// they die. Renewal alone reads them only after they died, and a check
// of one of their members meanwhile (a few a change, at thousands of
// checks a millisecond) waited for that read; now such a check finds the
// new set already there and only makes the member's entry anew, from
// memory. When another invalidation comes between the read and the
// step, or the read fails, the sets die unreplaced, as InvalidateRole
// leaves them. read reads roles as Loader.RoleGrants does; the caller
// makes sure it sees what the change committed (from the primary: a read
// replica may not have replayed it yet).
func (c *Cache) InvalidateRoleRead(ctx context.Context, role string, read RoleRead) {
	c.mu.Lock()
	if !c.renew || c.closed {
		c.renewLocked(c.invalidateRoleLocked(role, true))
		c.mu.Unlock()
		return
	}
	// The sets that will die: role's own and those built from it.
	var names []string
	if r, ok := c.roles.Load(role); ok && !r.dead.Load() {
		names = append(names, role)
	}
	for _, r := range c.dependents[role] {
		if !r.dead.Load() && !slices.Contains(names, r.name) {
			names = append(names, r.name)
		}
	}
	if len(names) > readAheadMax {
		// A role many others inherit: the write would wait for them all;
		// renewal reads them instead, off the write's path.
		names = nil
	}
	epoch := c.roleEpoch.Load()
	c.mu.Unlock()
	var fresh []*roleEntry
	if len(names) > 0 {
		c.building.Add(1)
		memo := setMemo{}
		err := read(ctx, names, c.clock.Now(), func(name string, sources []string, grants [][]string, next time.Time) error {
			if !slices.Contains(names, name) || len(grants) != len(sources) {
				return fmt.Errorf("cache: the store answered for role %q, not asked for, or with %d grant lists for %d sources", name, len(grants), len(sources))
			}
			fresh = append(fresh, c.makeRole(name, sources, grants, nanos(next), memo))
			return nil
		})
		c.building.Add(-1)
		if err != nil {
			fresh = nil
		}
	}
	c.mu.Lock()
	killed, members := c.invalidateRoleLocked(role, true)
	published := false
	for _, r := range fresh {
		// At the epoch this invalidation moved to: published only if no
		// other came between the read and now.
		published = c.publishRoleLocked(r, epoch+1) || published
	}
	c.renewLocked(killed, members)
	c.mu.Unlock()
	if published {
		c.budget.settle()
	}
}
