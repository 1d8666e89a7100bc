// Package feed is rolegate's change feed as one process follows it: how
// the decision caches learn that other processes wrote, and how a read
// waits for a write it names.
//
// Every write of a client bumps the client's revision and logs what it
// changed (storage.RecordChange) in its own transaction. This package
// reads that back:
//   - a periodic check compares each followed client's revision with the
//     store's and drops from its cache what the change log says changed
//     since (the users, the roles), or everything when the log cannot say;
//     a check that fails flushes every cache, so that guards fail closed;
//   - where the store announces writes (storage.Listen), a Notifier
//     delivers each announcement as a cue to check that client at once. A
//     cue is only a cue: anyone who can connect can send one, so the
//     revision is always read back from the store. A lost subscription
//     flushes every cache;
//   - revision tokens (Format, Parse) name a revision; CatchUp and AtLeast
//     bring a cache up to one now, and Confirm is strict consistency's
//     step before every check.
//
// The feed knows a client as a Follower: its scope, its cache (the small
// Cache interface; *cache.Cache in rolegate) and the revision the cache
// reflects. It imports nothing of authz: the host of the feed hands it
// its followers and its store.
package feed
