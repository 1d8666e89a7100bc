package authz

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/gin-gonic/gin"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/cache"
	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// Where a user may act: the answer to "in which scopes does alice hold
// edit?", for listing only what she may see. It comes from the decision
// cache, like a check: a warm answer takes no lock and allocates nothing.

// Where is where a user holds a permission: everywhere, through a global
// membership (Global), and in each scope listed, through a membership in
// that scope (Scopes, sorted; listed whether or not she also holds it
// globally). Inheritance counts in both. The zero value holds nowhere.
//
// A Where shares its scopes with the decision cache and never changes:
// Scopes returns a copy, Len, Scope and All read them in place.
type Where struct {
	global bool
	scopes []string // sorted, distinct; shared, never modified
}

// Global reports whether the user holds the permission through a global
// membership, hence in every scope.
func (w Where) Global() bool { return w.global }

// Nowhere reports whether the user holds the permission in no scope at
// all: not globally and in no scope listed.
func (w Where) Nowhere() bool { return !w.global && len(w.scopes) == 0 }

// In reports whether the user holds the permission in scope: globally, or
// scope is listed. It agrees with Client.UserHasPermissionIn at the time
// the Where was answered.
func (w Where) In(scope string) bool {
	if w.global {
		return true
	}
	_, found := slices.BinarySearch(w.scopes, scope)
	return found
}

// Len is the number of scopes listed.
func (w Where) Len() int { return len(w.scopes) }

// Scope is the i-th scope listed, in sorted order.
func (w Where) Scope(i int) string { return w.scopes[i] }

// Scopes returns the scopes listed, sorted, in a new slice.
func (w Where) Scopes() []string { return slices.Clone(w.scopes) }

// All yields the scopes listed, in sorted order, without a copy.
func (w Where) All() iter.Seq[string] { return slices.Values(w.scopes) }

// whereJSON is the JSON shape of a Where (GET /api/where_can).
type whereJSON struct {
	Global bool     `json:"global"`
	Scopes []string `json:"scopes"`
}

// MarshalJSON writes {"global": bool, "scopes": [...]}, the data of GET
// /api/where_can without paging.
func (w Where) MarshalJSON() ([]byte, error) {
	out := whereJSON{Global: w.global, Scopes: w.scopes}
	if out.Scopes == nil {
		out.Scopes = []string{}
	}
	return json.Marshal(out)
}

// Filter narrows q, a query of the host's own table, to the rows whose
// column (a column name, table-qualified or not, quoted as an identifier)
// holds a scope where the user holds the permission:
//
//   - held globally: q unchanged, no condition;
//   - held nowhere: WHERE FALSE, which the database answers without
//     reading the table (PostgreSQL plans no scan, SQLite's program jumps
//     to its end before opening the table);
//   - otherwise: column = ANY(?) with the scopes as one array on
//     PostgreSQL, column IN (...) elsewhere.
//
// Bun writes the values into the statement it sends, so the number of
// scopes meets no bound on query parameters (SQLite's is 32,766).
func (w Where) Filter(q *bun.SelectQuery, column string) *bun.SelectQuery {
	switch {
	case w.global:
		return q
	case len(w.scopes) == 0:
		return q.Where("FALSE")
	}
	return storage.WhereIn(q, column, w.scopes)
}

// WhereCan answers where user holds permission: globally, and the sorted
// scopes where a scoped membership grants it (inheritance included). It
// is answered from the decision cache like UserHasPermissionIn, whose
// answers it agrees with: a warm user takes no lock and allocates
// nothing (the scopes of one granting role are kept sorted in the user's
// cache entry; those of several are merged once and kept there too); a
// miss reads the user's roles from the store once. A name that could never
// be stored holds nowhere. When the store cannot be reached and nothing
// fresh is cached, the error wraps ErrUnavailable.
func (c *Client) WhereCan(ctx context.Context, user, permission string) (Where, error) {
	global, scopes, err := c.whereCan(ctx, user, permission)
	return Where{global: global, scopes: scopes}, err
}

// whereCan is WhereCan with the scopes as the cache's shared slice, for
// the REST layer (which pages them) and WhereCan.
func (c *Client) whereCan(ctx context.Context, user, permission string) (bool, []string, error) {
	if c.strict {
		if err := c.confirm(ctx); err != nil {
			return false, nil, err
		}
	}
	// As a check: one look, and the miss path in the cache room.
	return c.cache.WhereCan(ctx, user, permission)
}

// Check is one question of CheckMany: does User hold Permission, in Scope
// when Scope is not empty (global memberships and those in Scope count),
// else through a global membership.
type Check = rbac.Check

// CheckMany answers many checks in one call, in order: results[i] is what
// UserHasPermissionIn (or UserHasPermission, without a scope) answers for
// checks[i]. Warm users are answered from the cache as single checks are;
// each user missing from it is read once; with strict consistency the
// client's revision is confirmed once for the whole call. A name that
// could never be stored is not found (false). The first error (the store
// unreachable: ErrUnavailable) ends the call with no results.
func (c *Client) CheckMany(ctx context.Context, checks []Check) ([]bool, error) {
	if c.strict {
		if err := c.confirm(ctx); err != nil {
			return nil, err
		}
	}
	out := make([]bool, len(checks))
	for i := range checks {
		ck := &checks[i]
		var ok bool
		var err error
		if c.plain {
			ok, _, err = c.cache.Check(ctx, ck.Scope, ck.User, ck.Permission)
		} else {
			ok, err = c.ask(ctx, cache.Permission, ck.Scope, ck.User, ck.Permission)
		}
		if err != nil {
			return nil, err
		}
		out[i] = ok
	}
	return out, nil
}

// ErrNoUser is what Authz.WhereCan returns when the request has no user:
// no guard admitted one and the resolver finds none.
var ErrNoUser = middleware.ErrNoUser

// WhereCan answers Client.WhereCan under the host client for the user of
// the request: the one a guard admitted (middleware.UserFrom), else the
// one the guards' resolver finds (Config.Resolver or the login session).
// For a handler listing the host's own rows:
//
//	where, err := az.WhereCan(c, "notes.read")
//	if err != nil { ... } // ErrNoUser: 401; ErrUnavailable: 503
//	q := db.NewSelect().Model(&notes)
//	err = where.Filter(q, "org").Scan(ctx)
//
// ErrNoClientKey when no host client key is configured.
func (az *Authz) WhereCan(c *gin.Context, permission string) (Where, error) {
	if az.host == nil {
		return Where{}, ErrNoClientKey
	}
	user, ok := middleware.UserFrom(c)
	if !ok {
		var err error
		user, err = az.resolver(c)
		switch {
		case errors.Is(err, middleware.ErrResolverUnavailable):
			return Where{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
		case err != nil || user == "":
			return Where{}, ErrNoUser
		}
	}
	return az.host.WhereCan(c.Request.Context(), middleware.NormalizeName(user), permission)
}
