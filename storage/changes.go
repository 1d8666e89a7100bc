package storage

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261122000100", "change log", changesUp, changesDown)
	AddMigration("20261122000200", "change log: plain writers", changesPlainUp, changesPlainDown)
	AddMigration("20261123091500", "change log: roles changed", changesRoleUp, changesRoleDown)
	AddMigration("20261125170000", "change log: drop plain writers", changesPlainDown, changesPlainUp)
	AddMigration("20261125200000", "change log: writer", changesWriterUp, changesWriterDown)
}

// writer names the process that wrote each change (Change.Writer), so a
// replica that reads the log skips its own changes, which it applied to
// its cache already. NULL (a writer that predates the column) counts as
// someone else's.
func changesWriterUp(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, "ALTER TABLE rolegate_changes ADD COLUMN writer TEXT")
	return err
}

func changesWriterDown(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, "ALTER TABLE rolegate_changes DROP COLUMN writer")
	return err
}

// role names the role whose grants a write changed (user_name is then
// NULL, which replicas that predate the column read as "anything", so a
// rolling upgrade stays safe); role_deleted marks the role's deletion,
// which also changes its members.
func changesRoleUp(ctx context.Context, db *bun.DB) error {
	for _, q := range []string{
		"ALTER TABLE rolegate_changes ADD COLUMN role TEXT",
		"ALTER TABLE rolegate_changes ADD COLUMN role_deleted BOOLEAN NOT NULL DEFAULT FALSE",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

func changesRoleDown(ctx context.Context, db *bun.DB) error {
	for _, q := range []string{
		"ALTER TABLE rolegate_changes DROP COLUMN role_deleted",
		"ALTER TABLE rolegate_changes DROP COLUMN role",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// plain marked the entries of writers running without encryption, for
// the mixed plain/encrypted mode; that mode is gone (a store is converted
// when encryption is turned on) and migration 20261125170000 drops it.
func changesPlainUp(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, "ALTER TABLE rolegate_changes ADD COLUMN plain BOOLEAN NOT NULL DEFAULT FALSE")
	return err
}

func changesPlainDown(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, "ALTER TABLE rolegate_changes DROP COLUMN plain")
	return err
}

// The change log says, for each recent revision of a namespace, what the
// write behind it may have changed: one user's memberships (user_name),
// one role's grants, its inheritance links or the role itself (user_name
// NULL, role set: a grant, a revoke, a parent added or removed, a role
// deleted; replicas drop every set built from that role), anything (both NULL), or nobody's
// permissions (user_name ”: a role added). A replica that sees another's
// revisions reads them here and drops only the users and roles named,
// rather than its whole cache. Only the latest ChangesKept revisions per
// namespace are kept; a replica further behind flushes everything.
const changesSchema = `CREATE TABLE IF NOT EXISTS rolegate_changes (
	ns TEXT NOT NULL,
	revision BIGINT NOT NULL,
	user_name TEXT,
	PRIMARY KEY (ns, revision)
)`

// The change feed: ChangesKept is how many revisions per namespace the
// change log keeps; ChangesPruneEvery how often (in revisions) a write
// prunes older ones; ChangesChannel the PostgreSQL NOTIFY channel on which
// every write announces the namespace it changed.
const (
	ChangesKept       = 1024
	ChangesPruneEvery = 64
	ChangesChannel    = "rolegate_changes"
)

func changesUp(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, changesSchema)
	return err
}

func changesDown(ctx context.Context, db *bun.DB) error {
	_, err := db.ExecContext(ctx, "DROP TABLE IF EXISTS rolegate_changes")
	return err
}

// Change is what a write may have changed, for the change log.
type Change struct {
	// All: the write may change anyone's permissions in ways not said here.
	All bool
	// User: the member whose memberships changed.
	User string
	// Role: the role whose grants changed (a grant, a revoke), or that was
	// deleted when RoleDeleted. With neither User nor Role, the write
	// changes no one's permissions (a role added or described).
	Role        string
	RoleDeleted bool
	// Writer: the id of the process that writes it (see ChangedUsers);
	// empty is stored as NULL, someone unknown.
	Writer string
	// Rows: how many rows the write added, by which the namespace's row
	// bound rises (see RecordChangeBound).
	Rows int64
	// Bytes: at most how many bytes of text (as stored) the write added,
	// by which the namespace's byte bound rises.
	Bytes int64
	// Feed: the operations the write made, for the public change feed
	// (see RecordFeed), stored with the change log entry.
	Feed []FeedEntry
}

// logValue is the user_name column of the change: NULL for all, the
// stored form of the user (encrypted when names are), or ” for nobody
// (no valid name is empty).
func (c Change) logValue(s Scope) sql.NullString {
	switch {
	case c.All, c.Role != "":
		return sql.NullString{}
	case c.User != "":
		return sql.NullString{String: s.storedUser(c.User), Valid: true}
	default:
		return sql.NullString{Valid: true}
	}
}

// RecordChange is bumpRevision plus the change log entry for the new
// revision, in the caller's transaction. On PostgreSQL the bump, the entry
// and the NOTIFY are one statement: one round trip while the revision row
// is locked.
//
// It is also where a write checks the store's encryption state, in its own
// transaction: the entry is only written when the store's writer key check
// value (SettingCipherWriter; none for a plain store) is s.KeyCheck, and
// otherwise the write fails with ErrKeyMismatch and rolls back. So a
// replica still running without the key, once another has turned
// encryption on, refuses the write (503) instead of writing plain text.
func RecordChange(ctx context.Context, db bun.IDB, s Scope, ch Change) (int64, error) {
	rev, _, err := RecordChangeBound(ctx, db, s, ch)
	return rev, err
}

// RecordChangeBound is RecordChange that also raises the namespace's
// bounds by ch.Rows and ch.Bytes in the same statement, and returns them:
// upper bounds of the rows the namespace holds and of the bytes of their
// text, each -1 when it is not known (the namespace's first write, or one
// from before the bound was kept; see Recount).
func RecordChangeBound(ctx context.Context, db bun.IDB, s Scope, ch Change) (rev int64, bounds Bounds, err error) {
	stored := ch.logValue(s)
	role := sql.NullString{String: ch.Role, Valid: ch.Role != "" && !ch.All}
	deleted := role.Valid && ch.RoleDeleted
	writer := sql.NullString{String: ch.Writer, Valid: ch.Writer != ""}
	if IsPostgres(db) {
		// The feed's first entries go in the same statement: one round
		// trip for the whole record of a single write. Those from a
		// del_role that takes members in (FeedEntry.Removed) on follow.
		n := 0
		for n < min(len(ch.Feed), feedInsertRows) && ch.Feed[n].Removed.N == 0 {
			n++
		}
		inline := ch.Feed[:n]
		feedSQL, feedArgs := feedValues(s, inline)
		args := append([]any{s.NS, ch.Rows, ch.Bytes, s.NS, stored, role, deleted, writer, SettingCipherWriter, s.KeyCheck}, feedArgs...)
		args = append(args, ChangesChannel, s.NS)
		var rows, bytes sql.NullInt64
		err := db.NewRaw(`WITH r AS (`+revisionUpsert+`),
			c AS (INSERT INTO rolegate_changes (ns, revision, user_name, role, role_deleted, writer)
				SELECT ?, revision, ?, ?, ?, ? FROM r WHERE `+writerGuard+` RETURNING revision)`+feedSQL+`
			SELECT c.revision, r.row_bound, r.byte_bound FROM c, r, (SELECT pg_notify(?, ?)) n`,
			args...).Scan(ctx, &rev, &rows, &bytes)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, bounds, ErrKeyMismatch
		}
		if err != nil {
			return 0, bounds, Classify(err)
		}
		if _, err := placeFeed(ctx, db, s, rev, len(inline), ch.Feed[len(inline):]); err != nil {
			return 0, bounds, err
		}
		return rev, Bounds{Rows: boundOf(rows), Bytes: boundOf(bytes)}, nil
	}
	rev, bounds, err = bumpRevision(ctx, db, s.NS, ch)
	if err != nil {
		return 0, bounds, err
	}
	res, err := db.NewRaw("INSERT INTO rolegate_changes (ns, revision, user_name, role, role_deleted, writer) SELECT ?, ?, ?, ?, ?, ? WHERE "+writerGuard,
		s.NS, rev, stored, role, deleted, writer, SettingCipherWriter, s.KeyCheck).Exec(ctx)
	if err != nil {
		return 0, bounds, Classify(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return 0, bounds, ErrKeyMismatch
	}
	if _, err := placeFeed(ctx, db, s, rev, 0, ch.Feed); err != nil {
		return 0, bounds, err
	}
	return rev, bounds, nil
}

// boundOf is a bound as RecordChangeBound returns it: -1 for unknown.
func boundOf(b sql.NullInt64) int64 {
	if !b.Valid {
		return -1
	}
	return b.Int64
}

// CheckWriter is RecordChange's check of the store's encryption state for
// a write that changes nothing, and so records no change: ErrKeyMismatch
// when the store's writer key check value is not s.KeyCheck. Without it a
// replica still running without the key would answer "nothing deleted"
// for a name that is there, encrypted, and write its audit record (names
// and all) in plain text.
func CheckWriter(ctx context.Context, db bun.IDB, s Scope) error {
	var ok int
	err := db.NewRaw("SELECT 1 WHERE "+writerGuard, SettingCipherWriter, s.KeyCheck).Scan(ctx, &ok)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrKeyMismatch
	}
	return Classify(err)
}

// PruneChanges drops the namespace's change log entries older than the
// latest ChangesKept before rev.
func PruneChanges(ctx context.Context, db bun.IDB, ns string, rev int64) error {
	_, err := db.NewRaw("DELETE FROM rolegate_changes WHERE ns = ? AND revision <= ?", ns, rev-ChangesKept).Exec(ctx)
	return Classify(err)
}

// Changes is what some revisions of a namespace changed, from the change
// log.
type Changes struct {
	// Complete: every revision asked for has an entry. When false, nothing
	// else here is to be trusted: assume anything changed.
	Complete bool
	// All: some revision may have changed anyone's permissions.
	All bool
	// Users: otherwise, the users whose memberships changed (plain names);
	// Roles the roles whose grants changed; DeletedRoles the roles deleted.
	Users        []string
	Roles        []string
	DeletedRoles []string
	// Others counts the revisions not written by the caller.
	Others int64
}

// ChangedUsers reads what the revisions after..upto (after excluded) of
// the namespace changed: the users and roles named. The changes of writer
// self (the caller's own, already applied) are left out; they still count
// towards Complete.
func ChangedUsers(ctx context.Context, db bun.IDB, s Scope, self string, after, upto int64) (Changes, error) {
	if upto <= after {
		return Changes{Complete: true}, nil
	}
	var rows []struct {
		Revision int64          `bun:"revision"`
		User     sql.NullString `bun:"user_name"`
		Role     sql.NullString `bun:"role"`
		Deleted  bool           `bun:"role_deleted"`
		Writer   sql.NullString `bun:"writer"`
	}
	if err := db.NewRaw("SELECT revision, user_name, role, role_deleted, writer FROM rolegate_changes WHERE ns = ? AND revision > ? AND revision <= ?",
		s.NS, after, upto).Scan(ctx, &rows); err != nil {
		return Changes{}, Classify(err)
	}
	if int64(len(rows)) != upto-after {
		return Changes{}, nil
	}
	ch := Changes{Complete: true}
	for _, r := range rows {
		if self != "" && r.Writer.Valid && r.Writer.String == self {
			continue // applied by the caller when it wrote it
		}
		ch.Others++
		if !r.User.Valid && r.Role.Valid && r.Role.String != "" {
			if r.Deleted {
				ch.DeletedRoles = append(ch.DeletedRoles, r.Role.String)
			} else {
				ch.Roles = append(ch.Roles, r.Role.String)
			}
			continue
		}
		if ch.All || !r.User.Valid {
			ch.All = true
			continue
		}
		if r.User.String == "" {
			continue // changed no one's permissions
		}
		u, err := s.plainUser(r.User.String)
		if err != nil || strings.Contains(u, "/") {
			// Unreadable (tampered, or encrypted while this process has
			// encryption off: no valid name holds a '/'): whoever it was,
			// assume anyone.
			ch.All = true
			continue
		}
		ch.Users = append(ch.Users, u)
	}
	if ch.All {
		ch.Users, ch.Roles, ch.DeletedRoles = nil, nil, nil
	}
	return ch, nil
}

// SettingCipherWriter is the rolegate_settings key of the writer key check
// value: the key check value of the key every write must be made under
// (absent: the store is plain). Opening with encryption sets it before
// converting or re-encrypting anything, so from then on writers without
// that key are refused (see RecordChange).
const SettingCipherWriter = "cipher_writer"

// writerGuard holds when the store's writer key check value (argument 1:
// SettingCipherWriter) is the writer's own (argument 2; empty for plain).
const writerGuard = "COALESCE((SELECT value FROM rolegate_settings WHERE key = ?), '') = ?"

// WaitForWriters returns once every write transaction that recorded a
// change before it was called has ended. Called after SettingCipherWriter
// changed, it makes the new value binding: a writer that passed the guard
// under the old value has committed (so a pass that starts now sees its
// rows), and every later one meets the new value. On PostgreSQL it takes,
// and at once releases, a SHARE lock on the change log, which waits for
// the ROW EXCLUSIVE lock each changing write holds from its change-log
// insert to its commit. SQLite has one writer at a time, and the setting's
// own write already waited for it.
func WaitForWriters(ctx context.Context, db bun.IDB) error {
	if !IsPostgres(db) {
		return nil
	}
	return Classify(db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		_, err := tx.ExecContext(ctx, "LOCK TABLE rolegate_changes IN SHARE MODE")
		return err
	}))
}
