// Package cache is rolegate's decision cache: per client, what each user
// may do, built from the store on first use and dropped when a change makes
// it stale.
//
// It keeps two kinds of entries per client:
//   - per user, their roles: global ones, and per scope the roles held in
//     that scope only;
//   - per role, its effective permission set (its own grants plus what it
//     inherits), shared by every member of the role; roles whose effective
//     sets are equal share one set (interned by content), so 600 roles
//     inheriting one large role hold its names once.
//
// Each user entry also keeps its global roles' permissions ready for the
// warm check: the one set they all share (no copy), or the union of its
// small sets (up to 16 permissions each) in a map of its own beside its
// large sets as they are, shared with every other member: a large set is
// never copied per user, so what users hold of their own grows with their
// memberships, not with the sizes of the roles they hold.
//
// A grant or revoke on a role drops every cached role set built from that
// role (itself, and with inheritance the roles inheriting from it); a
// membership change drops that user; a flush drops the client. A user's
// missing role sets are read together (one read of the store for all of
// them, not one per role), concurrent misses for one key read the store
// once, and one Budget bounds the entries and bytes of all clients
// together, taking from the largest.
//
// The warm check (Cache.Allowed, Cache.HasRole) takes no lock and
// allocates nothing: the user from a plain-map snapshot, one comparison of
// the entry's stamp with the cache's kill counter (after some role set
// died, the counters of the shards of the user's roles; the role sets one
// by one only when one of those moved), and one map lookup for the
// permission, whatever the number of roles (a no looks in each further
// large set of the user's too).
//
// Staleness: every build takes a ticket (an epoch) before it reads the
// store, and publishes only if no invalidation of its kind happened since;
// a role entry that an invalidation reaches is marked dead, so the users
// pointing at it refresh it on their next check. The store is read through
// the Loader interface, so the tests need no database.
package cache
