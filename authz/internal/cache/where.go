package cache

import (
	"context"
	"slices"
	"strings"

	"github.com/rolegate/rolegate/middleware"
)

// Where a user holds a permission: globally (through a global role) and
// in which scopes (through roles held there), answered from the same
// entries as Allowed.
//
// A user entry's scope index keeps, per role held in some scope, the
// scopes where it is held, sorted (scopeIndex.where, built with the
// index). The answer for a permission is then one lookup per distinct
// scoped role, not one per scope: a user in 1,000 orgs as "editor" is one
// lookup, and the answer that sorted list itself; the lists of several
// granting roles are merged once and remembered by the entry.

// CachedWhere is Where's hit path alone: warm is false when the answer
// needs the store. The entry is the one Cached would answer from, under
// the same conditions (see warmUser).
func (c *Cache) CachedWhere(user, perm string) (global bool, scopes []string, warm bool) {
	u, ok := c.warmUser(user)
	if !ok {
		return false, nil, false
	}
	global, scopes = c.where(u, perm)
	return global, scopes, true
}

// Where reports whether the user holds perm through a global role, and
// the scopes (sorted, distinct) where a role held in that scope grants
// it, whether or not a global role does too. scopes is shared with the
// cache: the caller must not modify it. A warm user is answered without
// a lock or an allocation once the permission was asked of the entry
// before (see where); a miss reads the store as Allowed does (without
// the layers, which are the checks'), for names already in the store's
// form.
func (c *Cache) Where(ctx context.Context, user, perm string) (global bool, scopes []string, err error) {
	u, ok := c.warmUser(user)
	if !ok {
		if u, err = c.fresh(ctx, user, u); err != nil {
			return false, nil, err
		}
	}
	global, scopes = c.where(u, perm)
	return global, scopes, nil
}

// WhereCan is Where for names as a caller gives them, as Check is for a
// permission: one look; a no or a miss looked at again with the names'
// NFC forms when they differ; then Admit, and a user name that could
// never be stored holds nowhere (nothing read, nothing cached).
func (c *Cache) WhereCan(ctx context.Context, user, perm string) (global bool, scopes []string, err error) {
	u, ok := c.warmUser(user)
	if ok && orBytes(perm) == 0 {
		global, scopes = c.where(u, perm)
		return global, scopes, nil
	}
	if !ascii("", user, perm) {
		if nu, np := middleware.NormalizeName(user), middleware.NormalizeName(perm); nu != user || np != perm {
			user, perm = nu, np
			u, ok = c.warmUser(user)
		}
	}
	if !ok {
		if c.admit != nil {
			if err := c.admit(); err != nil {
				return false, nil, err
			}
		}
		if !middleware.ValidName(user) {
			return false, nil, nil // never stored: never cached, holds nothing
		}
		if u, err = c.fresh(ctx, user, u); err != nil {
			return false, nil, err
		}
	}
	global, scopes = c.where(u, perm)
	return global, scopes, nil
}

// warmUser is the entry Cached answers from, found and judged the same
// way: in the index or the map, with every role entry live (the entry's
// marks). Cached writes these steps out for speed; whatever makes an
// entry unfit for one warm answer must make it unfit for the other. An
// entry found unfit is returned with ok false (nil: none found).
func (c *Cache) warmUser(user string) (u *userEntry, ok bool) {
	u, ok = c.lookup(user)
	if !ok {
		return nil, false
	}
	if !c.fit(u) {
		return u, false
	}
	c.touch(u)
	return u, true
}

// whereMemo is what an entry remembers of its merged answers (see
// where): immutable once published, replaced whole.
type whereMemo []memoScopes

type memoScopes struct {
	perm   string
	scopes []string
}

// maxWhereMemo is the most permissions whose merged scopes one entry
// remembers; past it, an answer is merged each time it is asked.
const maxWhereMemo = 8

// memoItemBytes is what one remembered answer is counted as beside its
// permission's bytes and its scopes' headers.
const memoItemBytes = 64

// where answers from the entry as it is (see Where): one lookup per scoped
// role. When one role grants, the answer is its sorted list as built;
// when several do, their lists merged, which the entry then remembers
// (counted in the budget), so that asking again costs no merge.
func (c *Cache) where(u *userEntry, perm string) (global bool, scopes []string) {
	global = u.grants("", perm)
	if u.scoped == nil {
		return global, nil
	}
	if m := u.memo.Load(); m != nil {
		for i := range *m {
			if (*m)[i].perm == perm {
				return global, (*m)[i].scopes
			}
		}
	}
	var buf [maxMergeHeads][]string
	lists := buf[:0]
	for i, r := range u.scopedRoles {
		if r.allows(perm) {
			lists = append(lists, u.scoped.where[i])
		}
	}
	switch len(lists) {
	case 0:
		return global, nil
	case 1:
		return global, lists[0]
	}
	scopes = mergeScopes(lists)
	c.remember(u, perm, scopes)
	return global, scopes
}

// remember keeps a merged answer in u while u is the user's published
// entry, and counts it in the budget (it leaves with the entry).
func (c *Cache) remember(u *userEntry, perm string, scopes []string) {
	if m := u.memo.Load(); m != nil && len(*m) >= maxWhereMemo {
		return
	}
	bytes := memoItemBytes + int64(len(perm)) + groupScopeBytes*int64(len(scopes))
	c.mu.Lock()
	cur, ok := c.users.Load(u.name)
	kept := !c.closed && ok && cur == u
	if kept {
		var next whereMemo
		if m := u.memo.Load(); m != nil {
			if len(*m) >= maxWhereMemo || slices.ContainsFunc(*m, func(s memoScopes) bool { return s.perm == perm }) {
				kept = false
			}
			next = append(next, *m...)
		}
		if kept {
			next = append(next, memoScopes{perm: strings.Clone(perm), scopes: scopes})
			u.memo.Store(&next)
			u.memoBytes.Add(bytes)
			c.budget.count(c, 0, bytes)
		}
	}
	c.mu.Unlock()
	if kept {
		c.budget.settle()
	}
}

// maxMergeHeads is the most sorted lists merged head by head; past it
// they are appended and sorted.
const maxMergeHeads = 8

// mergeScopes merges sorted, distinct lists into one, each scope once.
func mergeScopes(lists [][]string) []string {
	total := 0
	for _, l := range lists {
		total += len(l)
	}
	out := make([]string, 0, total)
	if len(lists) > maxMergeHeads {
		for _, l := range lists {
			out = append(out, l...)
		}
		slices.Sort(out)
		return slices.Clip(slices.Compact(out))
	}
	var heads [maxMergeHeads]int
	for {
		least := ""
		found := false
		for k, l := range lists {
			if heads[k] < len(l) && (!found || l[heads[k]] < least) {
				least, found = l[heads[k]], true
			}
		}
		if !found {
			return slices.Clip(out)
		}
		out = append(out, least)
		for k, l := range lists {
			if heads[k] < len(l) && l[heads[k]] == least {
				heads[k]++
			}
		}
	}
}
