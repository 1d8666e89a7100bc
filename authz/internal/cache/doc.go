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
// small sets (up to mergeMax permissions together) in a set of its own
// beside its large sets as they are, shared with every other member: a
// large set is never copied per user, so what users hold of their own
// grows with their memberships, not with the sizes of the roles they hold.
// A set of up to mergeMax names, merged or shared, is looked in through
// its small form (small.go): its names' fingerprints sorted in one block,
// a line or two for the check to read where a map takes four or five.
//
// A grant or revoke on a role drops every cached role set built from that
// role (itself, and with inheritance the roles inheriting from it); a
// membership change drops that user; a flush drops the client. A user's
// missing role sets are read together (one read of the store for all of
// them, not one per role), concurrent misses for one key read the store
// once, and one Budget bounds the entries and bytes of all clients
// together, taking from the largest.
//
// The warm check (Cache.Check, Cache.CheckRole) takes no lock and
// allocates nothing: the user from an index changed in place (index.go:
// one slot, then the entry's first line), one comparison of two counters
// in that line (the entry's marks, moved when a role set of the user
// dies, and the marks last seen; the role sets one by one only when they
// differ), and one look for the permission in the user's small set,
// whatever the number of roles (a no looks in each large set of the
// user's too, a map each). A grant to one role so costs the checks of
// the users who do not hold it nothing.
//
// Renewal (Options.Renew, on in rolegate): a role set killed while in use
// is read again at once by a goroutine of the cache's own, and the entries
// of the users that held it (each role entry lists its members) are
// refreshed there, so a grant costs the checking goroutines neither the
// store read nor the members' rebuilds; a user entry replaced so takes
// its predecessor's slot in the index at once. For this process's own
// committed changes (InvalidateRoleRead), the sets are read before they
// die and take the dead ones' places in the same step, so that no check
// of a member waits for that read either.
// It is a build like any other (a ticket, published only if no
// invalidation came since), bounded (4,096 roles and 65,536 users
// waiting), and ends when nothing waits; late or failed, the checks do
// the work themselves, as without it.
//
// Staleness: every build takes a ticket (an epoch) before it reads the
// store, and publishes only if no invalidation of its kind happened since;
// a role entry that an invalidation reaches is marked dead, so the users
// pointing at it refresh it on their next check. The store is read through
// the Loader interface, so the tests need no database.
//
// A check stays in this room from its first look to its answer (check.go).
// Check (CheckRole, WhereCan) looks once; a no or a miss is looked at
// again only when the names' NFC forms (the store's) differ from them.
// Still a miss, the miss path: the front door's gate (Options.Admit: a
// closed Authz reads no store), the name check (a name that could never be
// stored is not found, and never cached), then the store read through the
// layers the cache was given (Options.Layers: metrics outermost, then the
// cold check's span; see authz/internal/observe), once for concurrent
// misses of one user. The entry the first look found unfit (a role set of
// it died) is handed on, so the miss refreshes it without looking the
// user up again; only the goroutine that builds looks once more, inside
// the single flight. The front door keeps what is not the cache's: strict
// mode's confirmation and the hit count.
//
// Counted along the calls as written, for a miss of a user not cached
// (ASCII names, no metrics or tracing) from Client.UserHasPermission to
// the Loader's read (the read itself is the same before and after):
// before the miss path moved here, 8 files (authz: check.go, client.go,
// observe.go; cache: cache.go, build.go, flight.go; observe/tracing.go;
// middleware/names.go), 7 crossings between packages, the cache looked at
// three times (Cached; Cached again inside Allowed; a lookup in fresh) and
// control handed between authz and the cache four times; now 7 files
// (authz: check.go, authz.go for the gate; cache: check.go, cache.go,
// build.go, flight.go; middleware/names.go), 6 crossings (the gate's call
// and return among them), one look, control handed twice (in, and out to
// the Loader). Every branch of the path taken together (non-ASCII names
// too), from the same entry to where a function value takes over: 6 files
// and 11 crossings before, 4 files and 4 crossings now. A grant (POST
// /api/permission, then another replica's InvalidateRole) is not changed
// by this: the write 20 files in 5 packages (authz, authz/internal/audit,
// feed, observe, storage) and 18 crossings, after the REST handler's 2
// files; on the other replica 5 files in 3 packages (the feed's notifier
// and feed.go, storage's change-log read, this room's invalidate.go).
package cache
