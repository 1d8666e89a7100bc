package authz

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// Policy is a client's roles, grants and inheritance, and optionally its
// memberships: the content of a policy file (see ParsePolicy).
type Policy struct {
	// Version of the file format; 1.
	Version int          `json:"version" yaml:"version"`
	Roles   []PolicyRole `json:"roles" yaml:"roles"`
	// Memberships, when not nil, are managed too: applying the policy adds
	// the missing ones and removes the others. Nil leaves memberships
	// alone (those made at run time survive a deploy).
	Memberships []PolicyMembership `json:"memberships,omitempty" yaml:"memberships,omitempty"`
	// ManageMemberships: memberships are part of the policy, even when the
	// list is empty (which removes every membership). ParsePolicy sets it
	// when the file has a memberships key.
	ManageMemberships bool `json:"-" yaml:"-"`
	// Tests are decisions the policy must give (the file's tests key):
	// rolegatectl policy test and package authz/authztest check them.
	// Applying a policy ignores them; the store keeps none.
	Tests []PolicyCase `json:"tests,omitempty" yaml:"tests,omitempty"`
}

// PolicyRole is one role of a policy.
type PolicyRole struct {
	Name        string   `json:"name" yaml:"name"`
	Description string   `json:"description,omitempty" yaml:"description,omitempty"`
	Permissions []string `json:"permissions,omitempty" yaml:"permissions,omitempty"`
	// Inherits: roles whose permissions this one has too.
	Inherits []string `json:"inherits,omitempty" yaml:"inherits,omitempty"`
	// TimedPermissions are the role's grants with time bounds (the file's
	// timed_permissions: {name, from, until}); a name is either here or
	// in Permissions.
	TimedPermissions []PolicyGrant `json:"timed_permissions,omitempty" yaml:"timed_permissions,omitempty"`
}

// PolicyGrant is a grant with time bounds: it counts from From (zero:
// from the start) until Until (zero: for good), as StartsAt and ExpiresAt
// make it; at least one is set.
type PolicyGrant struct {
	Name  string    `json:"name" yaml:"name"`
	From  time.Time `json:"starts_at,omitzero" yaml:"from,omitempty"`
	Until time.Time `json:"expires_at,omitzero" yaml:"until,omitempty"`
}

// PolicyMembership is one membership of a policy; Scope empty: global.
// From and Until are its time bounds (the file's from and until; zero:
// none), as StartsAt and ExpiresAt make them. In JSON (the REST lists)
// they are starts_at and expires_at.
type PolicyMembership struct {
	User  string    `json:"user" yaml:"user"`
	Role  string    `json:"role" yaml:"role"`
	Scope string    `json:"scope,omitempty" yaml:"scope,omitempty"`
	From  time.Time `json:"starts_at,omitzero" yaml:"from,omitempty"`
	Until time.Time `json:"expires_at,omitzero" yaml:"until,omitempty"`
}

// bounds are m's time bounds as stored.
func (m PolicyMembership) bounds() storage.TimeBounds {
	return storage.TimeBounds{Starts: m.From, Expires: m.Until}.Normalized()
}

func (g PolicyGrant) bounds() storage.TimeBounds {
	return storage.TimeBounds{Starts: g.From, Expires: g.Until}.Normalized()
}

// membershipKey is a membership without its bounds.
type membershipKey struct{ user, role, scope string }

func (m PolicyMembership) key() membershipKey { return membershipKey{m.User, m.Role, m.Scope} }

// boundsOps are b as an operation's StartsAt and ExpiresAt.
func boundsOps(op Operation, b storage.TimeBounds) Operation {
	if !b.Starts.IsZero() {
		t := b.Starts
		op.StartsAt = &t
	}
	if !b.Expires.IsZero() {
		t := b.Expires
		op.ExpiresAt = &t
	}
	return op
}

// PolicyVersion is the version of the policy format this build writes.
const PolicyVersion = 1

// Normalize sorts and deduplicates every list, so that equal policies
// compare equal and exports are stable. It works on copies of the lists:
// a policy value shared between goroutines (an embedded policy applied by
// several at once) is never written to.
func (p *Policy) Normalize() {
	if p.Version == 0 {
		p.Version = PolicyVersion
	}
	p.Roles = slices.Clone(p.Roles)
	if p.Memberships != nil {
		p.Memberships = slices.Clone(p.Memberships)
	}
	slices.SortFunc(p.Roles, func(a, b PolicyRole) int { return strings.Compare(a.Name, b.Name) })
	for i := range p.Roles {
		r := &p.Roles[i]
		r.Permissions = sortedSet(r.Permissions)
		r.Inherits = sortedSet(r.Inherits)
		if len(r.TimedPermissions) == 0 {
			r.TimedPermissions = nil
			continue
		}
		r.TimedPermissions = slices.Clone(r.TimedPermissions)
		for j := range r.TimedPermissions {
			g := &r.TimedPermissions[j]
			b := g.bounds()
			g.From, g.Until = b.Starts, b.Expires
		}
		slices.SortStableFunc(r.TimedPermissions, func(a, b PolicyGrant) int { return strings.Compare(a.Name, b.Name) })
		r.TimedPermissions = slices.CompactFunc(r.TimedPermissions, func(a, b PolicyGrant) bool { return a == b })
	}
	if p.Memberships != nil {
		p.ManageMemberships = true
	}
	for i := range p.Memberships {
		b := p.Memberships[i].bounds()
		p.Memberships[i].From, p.Memberships[i].Until = b.Starts, b.Expires
	}
	slices.SortStableFunc(p.Memberships, func(a, b PolicyMembership) int {
		return strings.Compare(a.Role+"\x00"+a.User+"\x00"+a.Scope, b.Role+"\x00"+b.User+"\x00"+b.Scope)
	})
	p.Memberships = slices.Compact(p.Memberships)
}

// DropExpired leaves out of p (a copy of its lists) the memberships and
// timed grants whose Until has come by now: applying them would be
// refused (ErrAlreadyExpired), and what they granted has ended. A backup
// restored after a bound passed restores the rest. ApplyPolicy and
// DiffPolicy do it; a caller of PlanPolicy does it first.
func (p *Policy) DropExpired(now time.Time) {
	gone := func(until time.Time) bool { return !until.IsZero() && !until.After(now) }
	if slices.ContainsFunc(p.Memberships, func(m PolicyMembership) bool { return gone(m.Until) }) {
		p.Memberships = slices.DeleteFunc(slices.Clone(p.Memberships), func(m PolicyMembership) bool { return gone(m.Until) })
	}
	cloned := false
	for i := range p.Roles {
		if slices.ContainsFunc(p.Roles[i].TimedPermissions, func(g PolicyGrant) bool { return gone(g.Until) }) {
			if !cloned {
				p.Roles, cloned = slices.Clone(p.Roles), true
			}
			p.Roles[i].TimedPermissions = slices.DeleteFunc(slices.Clone(p.Roles[i].TimedPermissions), func(g PolicyGrant) bool { return gone(g.Until) })
		}
	}
}

// nfcNames puts every name of a policy to apply in NFC, as at every other
// entry point, on copies (the caller's slices are left alone). The state
// read from the store is left as stored, so that a legacy decomposed row
// differs from its NFC name and is replaced by it.
func (p *Policy) nfcNames() {
	p.Roles = slices.Clone(p.Roles)
	for i := range p.Roles {
		r := &p.Roles[i]
		r.Name = middleware.NormalizeName(r.Name)
		r.Permissions = normalizeNames(r.Permissions)
		r.Inherits = normalizeNames(r.Inherits)
		if len(r.TimedPermissions) > 0 {
			r.TimedPermissions = slices.Clone(r.TimedPermissions)
			for j := range r.TimedPermissions {
				r.TimedPermissions[j].Name = middleware.NormalizeName(r.TimedPermissions[j].Name)
			}
		}
	}
	if p.Memberships != nil {
		p.Memberships = slices.Clone(p.Memberships)
	}
	for i := range p.Memberships {
		m := &p.Memberships[i]
		m.User, m.Role, m.Scope = middleware.NormalizeName(m.User), middleware.NormalizeName(m.Role), middleware.NormalizeName(m.Scope)
	}
}

func normalizeNames(v []string) []string {
	if len(v) == 0 {
		return v
	}
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = middleware.NormalizeName(s)
	}
	return out
}

func sortedSet(v []string) []string {
	if len(v) == 0 {
		return nil
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return slices.Compact(v)
}

// Validate checks a policy: version, names, no role twice, and every role
// that a role inherits or a membership names is in the policy. An error is
// a *PolicyFileError (errors.Is ErrInvalidPolicy) whose Path names the
// entry at fault, so that ParsePolicy can name its line.
func (p *Policy) Validate() error {
	if p.Version != 0 && p.Version != PolicyVersion {
		return invalidAt([]any{"version"}, "policy version %d is not supported (this build reads %d)", p.Version, PolicyVersion)
	}
	seen := make(map[string]bool, len(p.Roles))
	for i, r := range p.Roles {
		if err := checkNames("role", r.Name); err != nil {
			return invalidAt([]any{"roles", i, "name"}, "roles[%d]: %v", i, err)
		}
		if seen[r.Name] {
			return invalidAt([]any{"roles", i, "name"}, "roles[%d]: role %q appears twice", i, r.Name)
		}
		seen[r.Name] = true
		if err := checkDescription(r.Description); err != nil {
			return invalidAt([]any{"roles", i, "description"}, "role %q: %v", r.Name, err)
		}
		for j, perm := range r.Permissions {
			if err := checkNames("permission", perm); err != nil {
				return invalidAt([]any{"roles", i, "permissions", j}, "role %q: %v", r.Name, err)
			}
		}
		timed := make(map[string]bool, len(r.TimedPermissions))
		for j, g := range r.TimedPermissions {
			at := []any{"roles", i, "timed_permissions", j}
			if err := checkNames("permission", g.Name); err != nil {
				return invalidAt(at, "role %q: %v", r.Name, err)
			}
			if timed[g.Name] || slices.Contains(r.Permissions, g.Name) {
				return invalidAt(at, "role %q: permission %q is granted twice (a name is in permissions or in timed_permissions, once)", r.Name, g.Name)
			}
			timed[g.Name] = true
			if g.From.IsZero() && g.Until.IsZero() {
				return invalidAt(at, "role %q: timed permission %q has neither from nor until (write it under permissions)", r.Name, g.Name)
			}
			if err := policyBounds(g.bounds()); err != nil {
				return invalidAt(at, "role %q: permission %q: %v", r.Name, g.Name, err)
			}
		}
	}
	for i, r := range p.Roles {
		for j, parent := range r.Inherits {
			at := []any{"roles", i, "inherits", j}
			if !seen[parent] {
				return invalidAt(at, "role %q inherits %q, which the policy does not define", r.Name, parent)
			}
			if parent == r.Name {
				return invalidAt(at, "role %q inherits itself", r.Name)
			}
		}
	}
	if cyc := inheritanceCycle(p.Roles); cyc != nil {
		i := slices.IndexFunc(p.Roles, func(r PolicyRole) bool { return r.Name == cyc[0] })
		return invalidAt([]any{"roles", i}, "inheritance makes a cycle: %s", strings.Join(cyc, " -> "))
	}
	members := make(map[membershipKey]storage.TimeBounds, len(p.Memberships))
	for i, m := range p.Memberships {
		if err := m.validate(seen); err != nil {
			return invalidAt([]any{"memberships", i}, "memberships[%d]: %v", i, err)
		}
		if err := policyBounds(m.bounds()); err != nil {
			return invalidAt([]any{"memberships", i}, "memberships[%d]: %v", i, err)
		}
		if b, dup := members[m.key()]; dup && !b.Equal(m.bounds()) {
			return invalidAt([]any{"memberships", i}, "memberships[%d]: %s in %s appears twice with different from or until", i, m.User, m.Role)
		}
		members[m.key()] = m.bounds()
	}
	for i, tc := range p.Tests {
		if err := tc.validate(); err != nil {
			return invalidAt([]any{"tests", i}, "tests[%d]: %v", i, err)
		}
	}
	return nil
}

// policyBounds checks the bounds of a policy entry: from before until.
// An until already past is no error here: applying leaves the entry out.
func policyBounds(b storage.TimeBounds) error {
	if !b.Starts.IsZero() && !b.Expires.IsZero() && !b.Starts.Before(b.Expires) {
		return fmt.Errorf("from (%s) must come before until (%s)", b.Starts.Format(time.RFC3339Nano), b.Expires.Format(time.RFC3339Nano))
	}
	return nil
}

// validate checks one membership's names, and that its role is one of
// roles.
func (m PolicyMembership) validate(roles map[string]bool) error {
	if err := m.checkNames(); err != nil {
		return err
	}
	if !roles[m.Role] {
		return fmt.Errorf("role %q is not defined by the policy", m.Role)
	}
	return nil
}

// checkNames checks the names of one membership.
func (m PolicyMembership) checkNames() error {
	kv := []string{"user", m.User, "role", m.Role}
	if m.Scope != "" {
		kv = append(kv, "scope", m.Scope)
	}
	return checkNames(kv...)
}

// inheritanceCycle returns a cycle of the roles' inherits links (first
// role repeated at the end), or nil.
func inheritanceCycle(roles []PolicyRole) []string {
	parents := make(map[string][]string, len(roles))
	for _, r := range roles {
		parents[r.Name] = r.Inherits
	}
	const (
		unseen = iota
		onPath
		done
	)
	state := make(map[string]int, len(roles))
	var path []string
	var visit func(string) []string
	visit = func(n string) []string {
		switch state[n] {
		case onPath:
			i := slices.Index(path, n)
			return append(slices.Clone(path[i:]), n)
		case done:
			return nil
		}
		state[n] = onPath
		path = append(path, n)
		for _, p := range parents[n] {
			if cyc := visit(p); cyc != nil {
				return cyc
			}
		}
		path = path[:len(path)-1]
		state[n] = done
		return nil
	}
	for _, r := range roles {
		if cyc := visit(r.Name); cyc != nil {
			return cyc
		}
	}
	return nil
}

// PlanPolicy returns the operations that turn current into desired, in an
// order that a batch can run: roles created and descriptions set first,
// then links, grants and memberships removed, roles deleted, and grants,
// links and memberships added. Memberships are planned only when desired
// manages them. Both policies must be normalized.
func PlanPolicy(current, desired Policy) []Operation {
	cur := make(map[string]PolicyRole, len(current.Roles))
	for _, r := range current.Roles {
		cur[r.Name] = r
	}
	want := make(map[string]bool, len(desired.Roles))
	var adds, dels, roleAdds, roleDels []Operation
	for _, r := range desired.Roles {
		want[r.Name] = true
		old, ok := cur[r.Name]
		switch {
		case !ok:
			roleAdds = append(roleAdds, Operation{Op: "add_role", Role: r.Name, Description: r.Description})
		case old.Description != r.Description:
			roleAdds = append(roleAdds, Operation{Op: "set_description", Role: r.Name, Description: r.Description})
		}
		// Grants by name with their bounds (zero: none); one whose
		// bounds differ is added again with the new ones (an add sets
		// them exactly).
		had, grant := old.grants(), r.grants()
		for _, p := range sortedKeys(had) {
			if _, keep := grant[p]; !keep {
				dels = append(dels, Operation{Op: "del_permission", Role: r.Name, Permission: p})
			}
		}
		for _, p := range sortedKeys(grant) {
			if b, ok := had[p]; !ok || !b.Equal(grant[p]) {
				adds = append(adds, boundsOps(Operation{Op: "add_permission", Role: r.Name, Permission: p}, grant[p]))
			}
		}
		for _, p := range setMinus(old.Inherits, r.Inherits) {
			dels = append(dels, Operation{Op: "del_inheritance", Role: r.Name, Parent: p})
		}
		for _, p := range setMinus(r.Inherits, old.Inherits) {
			adds = append(adds, Operation{Op: "add_inheritance", Role: r.Name, Parent: p})
		}
	}
	for _, r := range current.Roles {
		if !want[r.Name] {
			roleDels = append(roleDels, Operation{Op: "del_role", Role: r.Name})
		}
	}
	if desired.ManageMemberships {
		have := make(map[membershipKey]storage.TimeBounds, len(current.Memberships))
		for _, m := range current.Memberships {
			have[m.key()] = m.bounds()
		}
		need := make(map[membershipKey]bool, len(desired.Memberships))
		for _, m := range desired.Memberships {
			need[m.key()] = true
			if b, ok := have[m.key()]; !ok || !b.Equal(m.bounds()) {
				adds = append(adds, boundsOps(Operation{Op: "add_membership", User: m.User, Role: m.Role, Scope: m.Scope}, m.bounds()))
			}
		}
		for _, m := range current.Memberships {
			if !need[m.key()] && want[m.Role] { // a deleted role takes its memberships along
				dels = append(dels, Operation{Op: "del_membership", User: m.User, Role: m.Role, Scope: m.Scope})
			}
		}
	}
	out := slices.Concat(roleAdds, dels, roleDels, adds)
	if out == nil {
		out = []Operation{}
	}
	return out
}

// grants are the role's grants by name with their bounds (zero: none).
func (r PolicyRole) grants() map[string]storage.TimeBounds {
	out := make(map[string]storage.TimeBounds, len(r.Permissions)+len(r.TimedPermissions))
	for _, p := range r.Permissions {
		out[p] = storage.TimeBounds{}
	}
	for _, g := range r.TimedPermissions {
		out[g.Name] = g.bounds()
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// setMinus is a \ b of sorted sets.
func setMinus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			out = append(out, x)
		}
	}
	return out
}

// ExportPolicy returns the client's whole state as a policy, memberships
// included (drop them for a policy that leaves memberships alone).
// Applying it to the same store changes nothing.
func (c *Client) ExportPolicy(ctx context.Context) (Policy, error) {
	return readValue(ctx, c, c.readPolicy)
}

func (c *Client) readPolicy(ctx context.Context, db bun.IDB) (Policy, error) {
	roles, err := storage.ListRoles(ctx, db, c.scope)
	if err != nil {
		return Policy{}, err
	}
	parents, err := c.readParents(ctx, db)
	if err != nil {
		return Policy{}, err
	}
	// Every stored row, held now or not, with its bounds: a membership
	// that starts on Monday is part of the state, and is kept.
	bounded, err := storage.AllBounded(ctx, db, c.scope)
	if err != nil {
		return Policy{}, err
	}
	type grantKey struct{ role, name string }
	grantBounds := map[grantKey]storage.TimeBounds{}
	memberBounds := map[membershipKey]storage.TimeBounds{}
	for _, b := range bounded {
		if b.Permission != "" {
			grantBounds[grantKey{b.Role, b.Permission}] = b.Bounds
		} else {
			memberBounds[membershipKey{b.User, b.Role, b.Scope}] = b.Bounds
		}
	}
	withBounds := func(m PolicyMembership) PolicyMembership {
		if b, ok := memberBounds[m.key()]; ok {
			m.From, m.Until = b.Starts, b.Expires
		}
		return m
	}
	every := func(l storage.List, of string) ([]string, error) {
		var out []string
		err := storage.Each(ctx, db, c.scope, l, "", of, storage.ListWindow{All: true}, func(page []string) error {
			out = append(out, page...)
			return nil
		})
		return out, err
	}
	p := Policy{Version: PolicyVersion, Roles: make([]PolicyRole, 0, len(roles)), Memberships: []PolicyMembership{}, ManageMemberships: true}
	for _, r := range roles {
		names, err := every(storage.PermissionsOfRole, r.Name)
		if err != nil {
			return Policy{}, err
		}
		members, err := every(storage.MembersOfRole, r.Name)
		if err != nil {
			return Policy{}, err
		}
		for _, u := range members {
			p.Memberships = append(p.Memberships, withBounds(PolicyMembership{User: u, Role: r.Name}))
		}
		role := PolicyRole{Name: r.Name, Description: r.Description, Inherits: parents[r.Name]}
		for _, n := range names {
			if b, ok := grantBounds[grantKey{r.Name, n}]; ok {
				role.TimedPermissions = append(role.TimedPermissions, PolicyGrant{Name: n, From: b.Starts, Until: b.Expires})
			} else {
				role.Permissions = append(role.Permissions, n)
			}
		}
		p.Roles = append(p.Roles, role)
	}
	scoped, err := c.readScopedMemberships(ctx, db)
	if err != nil {
		return Policy{}, err
	}
	for _, m := range scoped {
		p.Memberships = append(p.Memberships, withBounds(m))
	}
	p.Normalize()
	return p, nil
}

// DiffPolicy returns the operations ApplyPolicy would run now; empty when
// the store matches the policy.
func (c *Client) DiffPolicy(ctx context.Context, p Policy) ([]Operation, error) {
	p.nfcNames() // first: Validate must see the names as they are stored
	if err := p.Validate(); err != nil {
		return nil, err
	}
	p.Normalize()
	p.DropExpired(c.az.cfg.clock.Now())
	cur, err := c.readPolicy(ctx, c.az.db)
	if err != nil {
		return nil, err
	}
	return PlanPolicy(cur, p), nil
}

// ApplyPolicy makes the client's roles, descriptions, grants and
// inheritance match p (and its memberships, when p manages them), in one
// transaction with one audit record per change, and returns what it did.
// It is idempotent, and safe when several replicas apply the same policy
// at startup: they take turns, and the later ones find nothing to do.
func (c *Client) ApplyPolicy(ctx context.Context, p Policy) ([]Operation, error) {
	plan, _, err := c.applyPolicy(ctx, p)
	return plan, err
}

func (c *Client) applyPolicy(ctx context.Context, p Policy) ([]Operation, written, error) {
	p.nfcNames() // first: Validate must see the names as they are stored
	if err := p.Validate(); err != nil {
		return nil, written{}, err
	}
	p.Normalize()
	p.DropExpired(c.az.cfg.clock.Now())
	var plan []Operation
	var done []OpResult
	var removals map[int]removal
	ch := change{action: "apply_policy", resource: "apply_policy", many: true,
		entries: func() []storage.FeedEntry { return feedOps(plan, done, removals) }}
	wr, err := c.write(ctx, ch, func(ctx context.Context, w writer) (bool, error) {
		tx := w.db
		if err := c.lockNamespaceWrites(ctx, tx); err != nil {
			return false, err
		}
		cur, err := c.readPolicy(ctx, tx)
		if err != nil {
			return false, err
		}
		plan = PlanPolicy(cur, p)
		if len(plan) == 0 {
			return false, errBatchNoop
		}
		if err := c.checkOperations(plan); err != nil {
			return false, err
		}
		results, removed, err := c.runOperations(ctx, tx, plan)
		if err != nil {
			return false, err
		}
		done, removals = results, removed
		return anyChanged(results), nil
	})
	if err != nil {
		return nil, written{}, err
	}
	if !c.az.cfg.DisableAuditLogging {
		c.az.metrics.audited(len(plan))
		c.az.pruner.Wrote(len(plan)) // at most one record per operation
	}
	return plan, wr, nil
}
