package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261128200000", "change feed: what each revision did", feedUp, feedDown)
}

// The change feed (GET /api/changes): for each revision of a namespace,
// the operations it made, in order, each with its arguments, who made it
// and why (as the audit log records them) and when. rolegate_changes says
// only what a write may have changed, for other replicas' caches; this
// table says what it did, so that a reader can replay it. Names are
// stored as the rest of the store holds them (user and permission names,
// and descriptions when configured, encrypted; see Reencode). Entries are
// kept for the change retention (PruneFeed); changes_floor on the
// revision row is the newest revision pruned (or, for a namespace written
// before the feed existed, its revision then): a reader behind it has
// missed something.
const feedSchema = `CREATE TABLE IF NOT EXISTS rolegate_change_ops (
	ns TEXT NOT NULL,
	revision BIGINT NOT NULL,
	seq INTEGER NOT NULL,
	op TEXT NOT NULL,
	role TEXT NOT NULL DEFAULT '',
	permission TEXT NOT NULL DEFAULT '',
	user_name TEXT NOT NULL DEFAULT '',
	scope TEXT NOT NULL DEFAULT '',
	parent TEXT NOT NULL DEFAULT '',
	description TEXT NOT NULL DEFAULT '',
	new_user TEXT NOT NULL DEFAULT '',
	merge BOOLEAN NOT NULL DEFAULT FALSE,
	starts_at TIMESTAMP,
	expires_at TIMESTAMP,
	actor TEXT NOT NULL DEFAULT '',
	reason TEXT NOT NULL DEFAULT '',
	at TIMESTAMP NOT NULL,
	PRIMARY KEY (ns, revision, seq)
)`

func feedUp(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, q := range []string{
			feedSchema,
			"CREATE INDEX IF NOT EXISTS rolegate_change_ops_by_time ON rolegate_change_ops (at)",
			"ALTER TABLE rolegate_revisions ADD COLUMN changes_floor BIGINT NOT NULL DEFAULT 0",
			// What was written before the feed existed is not in it.
			"UPDATE rolegate_revisions SET changes_floor = revision",
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
}

func feedDown(ctx context.Context, db *bun.DB) error {
	for _, q := range []string{
		"ALTER TABLE rolegate_revisions DROP COLUMN changes_floor",
		"DROP TABLE IF EXISTS rolegate_change_ops",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// FeedEntry is one operation of the change feed, with plain names.
type FeedEntry struct {
	Revision int64
	// Op is the operation as the audit log names it: add_role,
	// set_description, del_role, add_permission, del_permission,
	// add_membership, del_membership, add_inheritance, del_inheritance,
	// rename_user, expire_membership, expire_permission.
	Op                         string
	Role, Permission, User     string
	Scope, Parent, Description string
	NewUser                    string // rename_user: the new name
	Merge                      bool   // rename_user: ?merge=true
	Bounds                     TimeBounds
	Actor, Reason              string
	At                         time.Time
	// Removed, on a del_role being recorded, are the del_membership
	// entries of the memberships its deletion removed, recorded ahead
	// (DeleteRoleFeed): they take the places just before it. Never set on
	// an entry read.
	Removed RemovedMembers
}

// feedRow is a FeedEntry as stored.
type feedRow struct {
	bun.BaseModel `bun:"table:rolegate_change_ops"`
	NS            string       `bun:"ns"`
	Revision      int64        `bun:"revision"`
	Seq           int          `bun:"seq"`
	Op            string       `bun:"op"`
	Role          string       `bun:"role"`
	Permission    string       `bun:"permission"`
	User          string       `bun:"user_name"`
	Scope         string       `bun:"scope"`
	Parent        string       `bun:"parent"`
	Description   string       `bun:"description"`
	NewUser       string       `bun:"new_user"`
	Merge         bool         `bun:"merge"`
	StartsAt      bun.NullTime `bun:"starts_at"`
	ExpiresAt     bun.NullTime `bun:"expires_at"`
	Actor         string       `bun:"actor"`
	Reason        string       `bun:"reason"`
	At            time.Time    `bun:"at"`
}

// feedInsertRows is how many entries one INSERT carries.
const feedInsertRows = 500

// RecordFeed stores the entries of revision rev (their Revision is
// ignored), in the write's own transaction, after RecordChange made rev.
// A write records its own through Change.Feed, in the change log's
// statement; this is for entries of a revision made otherwise.
func RecordFeed(ctx context.Context, db bun.IDB, s Scope, rev int64, entries []FeedEntry) error {
	_, err := placeFeed(ctx, db, s, rev, 0, entries)
	return err
}

// placeFeed stores entries of revision rev numbered from seq, each
// del_role's members recorded ahead (FeedEntry.Removed) moved in just
// before it, with its actor, reason and time. It returns the number after
// the last.
func placeFeed(ctx context.Context, db bun.IDB, s Scope, rev int64, seq int, entries []FeedEntry) (int, error) {
	rows := make([]feedRow, 0, min(len(entries), feedInsertRows))
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		_, err := db.NewInsert().Model(&rows).Exec(ctx)
		rows = rows[:0]
		return Classify(err)
	}
	for _, e := range entries {
		if m := e.Removed; m.N > 0 {
			r := s.feedRow(rev, seq, e)
			res, err := db.NewRaw(`UPDATE rolegate_change_ops SET revision = ?, seq = seq + ?, actor = ?, reason = ?, at = ?
				WHERE ns = ? AND revision = ?`, rev, seq, r.Actor, r.Reason, r.At, s.NS, m.Pending).Exec(ctx)
			var n int64
			if err == nil {
				n, err = res.RowsAffected()
			}
			if err != nil {
				return seq, Classify(err)
			}
			if n != m.N {
				return seq, fmt.Errorf("storage: the change feed holds %d of the %d memberships the deletion of %q removed", n, m.N, e.Role)
			}
			seq += int(m.N)
		}
		rows = append(rows, s.feedRow(rev, seq, e))
		seq++
		if len(rows) == feedInsertRows {
			if err := flush(); err != nil {
				return seq, err
			}
		}
	}
	return seq, flush()
}

// RecordFeedPending stores entries of a write whose revision is not made
// yet (a streamed batch records them chunk by chunk, before its revision
// bump, which comes last), under pending, a negative placeholder the
// caller chose for its transaction, numbered from seq; it returns the
// number after the last (past the members of a del_role, see
// FeedEntry.Removed). SettleFeed moves them to the revision in the same
// transaction; no reader ever reads a negative revision.
func RecordFeedPending(ctx context.Context, db bun.IDB, s Scope, pending int64, seq int, entries []FeedEntry) (int, error) {
	return placeFeed(ctx, db, s, pending, seq, entries)
}

// SettleFeed moves the entries recorded under pending (RecordFeedPending)
// to revision rev, once the write has made it.
func SettleFeed(ctx context.Context, db bun.IDB, s Scope, pending, rev int64) error {
	_, err := db.NewRaw("UPDATE rolegate_change_ops SET revision = ? WHERE ns = ? AND revision = ?", rev, s.NS, pending).Exec(ctx)
	return Classify(err)
}

// feedRow is entry seq of revision rev as stored.
func (s Scope) feedRow(rev int64, seq int, e FeedEntry) feedRow {
	b := e.Bounds.Normalized()
	r := feedRow{NS: s.NS, Revision: rev, Seq: seq, Op: e.Op, Role: e.Role, Scope: e.Scope, Parent: e.Parent,
		Merge: e.Merge, StartsAt: bun.NullTime{Time: b.Starts}, ExpiresAt: bun.NullTime{Time: b.Expires},
		Actor: e.Actor, Reason: e.Reason, At: e.At.UTC().Truncate(time.Microsecond)}
	if e.Permission != "" {
		r.Permission = s.storedPerm(e.Permission)
	}
	if e.User != "" {
		r.User = s.storedUser(e.User)
	}
	if e.NewUser != "" {
		r.NewUser = s.storedUser(e.NewUser)
	}
	r.Description = s.storedDescription(e.Description)
	return r
}

// feedValues is the PostgreSQL change log statement's insert of entries,
// as one more data-modifying WITH (after c, the change log entry, whose
// revision they take; none when the writer guard refused it), and its
// arguments.
func feedValues(s Scope, entries []FeedEntry) (string, []any) {
	if len(entries) == 0 {
		return "", nil
	}
	var q strings.Builder
	args := make([]any, 0, len(entries)*16)
	q.WriteString(`,
			f AS (INSERT INTO rolegate_change_ops (ns, revision, seq, op, role, permission, user_name, scope, parent,
				description, new_user, merge, starts_at, expires_at, actor, reason, at)
				SELECT ?, c.revision, v.* FROM c, (VALUES `)
	args = append(args, s.NS)
	for i, e := range entries {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(CAST(? AS INTEGER), ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS BOOLEAN), CAST(? AS TIMESTAMP), CAST(? AS TIMESTAMP), ?, ?, CAST(? AS TIMESTAMP))")
		r := s.feedRow(0, i, e)
		args = append(args, r.Seq, r.Op, r.Role, r.Permission, r.User, r.Scope, r.Parent, r.Description, r.NewUser, r.Merge,
			r.StartsAt, r.ExpiresAt, r.Actor, r.Reason, r.At)
	}
	q.WriteString(") AS v)")
	return q.String(), args
}

// ErrFeedGone: the revision a reader asks to follow from is older than
// the change feed keeps (HTTP 410).
var ErrFeedGone = errors.New("changes after that revision are no longer kept")

// FeedPage is a page of the change feed.
type FeedPage struct {
	Entries []FeedEntry
	// Next is where to read after next: after revision Next, and when
	// NextSeq is not -1, after its entry NextSeq (the page ended inside
	// the revision). An empty page's is where it was asked to read after.
	Next    int64
	NextSeq int
	// Current is the namespace's revision when the page was read.
	Current int64
}

// ReadFeed reads the namespace's entries after revision after (and, when
// afterSeq is not -1, after that revision's entry afterSeq), oldest first,
// at most limit of them: a revision with more entries (a batch) is read
// over several pages. ErrFeedGone when entries after that point were
// pruned.
func ReadFeed(ctx context.Context, db bun.IDB, s Scope, after int64, afterSeq, limit int) (FeedPage, error) {
	page := FeedPage{Next: after, NextSeq: afterSeq}
	var head struct {
		Revision int64 `bun:"revision"`
		Floor    int64 `bun:"changes_floor"`
	}
	err := db.NewRaw("SELECT revision, changes_floor FROM rolegate_revisions WHERE ns = ?", s.NS).Scan(ctx, &head)
	if errors.Is(err, sql.ErrNoRows) {
		return page, nil
	}
	if err != nil {
		return page, Classify(err)
	}
	page.Current = head.Revision
	gone := func(floor int64) bool {
		// Inside a revision, the reader has not finished it: gone when it
		// was pruned (whole) too.
		return after < floor || afterSeq >= 0 && after == floor && floor > 0
	}
	if gone(head.Floor) {
		return page, ErrFeedGone
	}
	if after > head.Revision || after == head.Revision && afterSeq < 0 {
		return page, nil
	}
	// Never past the revision read above: a write may commit meanwhile;
	// the revision row commits with its entries and in revision order, so
	// every entry up to the revision read is there, and none after it is
	// read (the next page would miss or repeat it). One entry more than
	// the page says whether it ended inside a revision.
	seq := afterSeq
	if seq < 0 {
		seq = math.MaxInt32 // after the whole revision
	}
	var rows []feedRow
	if err := db.NewRaw(`SELECT ns, revision, seq, op, role, permission, user_name, scope, parent, description, new_user,
			merge, starts_at, expires_at, actor, reason, at FROM rolegate_change_ops
		WHERE ns = ? AND revision <= ? AND (revision > ? OR revision = ? AND seq > ?)
		ORDER BY revision, seq LIMIT ?`, s.NS, head.Revision, after, after, seq, limit+1).Scan(ctx, &rows); err != nil {
		return page, Classify(err)
	}
	more := len(rows) > limit
	var following int64 // the revision of the first entry not in the page
	if more {
		following = rows[limit].Revision
		rows = rows[:limit]
	}
	page.Entries = make([]FeedEntry, len(rows))
	for i, r := range rows {
		e := FeedEntry{Revision: r.Revision, Op: r.Op, Role: r.Role, Scope: r.Scope, Parent: r.Parent, Merge: r.Merge,
			Bounds: TimeBounds{Starts: r.StartsAt.Time, Expires: r.ExpiresAt.Time}.Normalized(),
			Actor:  r.Actor, Reason: r.Reason, At: r.At.UTC()}
		var err error
		if r.Permission != "" {
			if e.Permission, err = plain(s.Permissions, r.Permission); err != nil {
				return page, err
			}
		}
		if r.User != "" {
			if e.User, err = s.plainUser(r.User); err != nil {
				return page, err
			}
		}
		if r.NewUser != "" {
			if e.NewUser, err = s.plainUser(r.NewUser); err != nil {
				return page, err
			}
		}
		if e.Description, err = s.plainDescription(r.Description); err != nil {
			return page, err
		}
		page.Entries[i] = e
	}
	// A prune that ran meanwhile may have taken entries after the point
	// asked for before they were read: the floor, read again, says so.
	if len(rows) > 0 {
		var floor int64
		if err := db.NewRaw("SELECT changes_floor FROM rolegate_revisions WHERE ns = ?", s.NS).Scan(ctx, &floor); err != nil {
			return page, Classify(err)
		}
		if gone(floor) {
			return FeedPage{Next: after, NextSeq: afterSeq, Current: head.Revision}, ErrFeedGone
		}
	}
	switch {
	case !more:
		// Every entry up to the revision read: revisions after the last
		// entry that have none (a rename's second) are read past too.
		page.Next, page.NextSeq = head.Revision, -1
	case rows[len(rows)-1].Revision == following:
		// The page ends inside a revision.
		last := rows[len(rows)-1]
		page.Next, page.NextSeq = last.Revision, last.Seq
	default:
		page.Next, page.NextSeq = rows[len(rows)-1].Revision, -1
	}
	return page, nil
}

// PruneFeed deletes up to batch feed entries written before cutoff, and
// raises each namespace's floor to the newest revision it deleted. It
// returns how many it deleted; call it again while that is batch.
func PruneFeed(ctx context.Context, db bun.IDB, cutoff time.Time, batch int) (int64, error) {
	var n int64
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var rows []struct {
			NS       string `bun:"ns"`
			Revision int64  `bun:"revision"`
		}
		if err := tx.NewRaw(`SELECT ns, MAX(revision) AS revision FROM (SELECT ns, revision FROM rolegate_change_ops
			WHERE at < ? ORDER BY at LIMIT ?) o GROUP BY ns`, cutoff.UTC(), batch).Scan(ctx, &rows); err != nil {
			return err
		}
		for _, r := range rows {
			// Whole revisions up to the newest one found: a revision is
			// never kept in part.
			res, err := tx.NewRaw("DELETE FROM rolegate_change_ops WHERE ns = ? AND revision <= ?", r.NS, r.Revision).Exec(ctx)
			if err != nil {
				return err
			}
			k, _ := res.RowsAffected()
			n += k
			if _, err := tx.NewRaw("UPDATE rolegate_revisions SET changes_floor = ? WHERE ns = ? AND changes_floor < ?",
				r.Revision, r.NS, r.Revision).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	return n, Classify(err)
}

// PruneFeedOver deletes the oldest feed entries of each namespace that
// holds more than most (whole revisions, up to batch entries per
// namespace a call), raising its floor past them as PruneFeed does. It
// returns how many it deleted; call it again while that is not 0.
func PruneFeedOver(ctx context.Context, db bun.IDB, most int64, batch int) (int64, error) {
	var over []struct {
		NS string `bun:"ns"`
		N  int64  `bun:"n"`
	}
	if err := db.NewRaw("SELECT ns, count(*) AS n FROM rolegate_change_ops GROUP BY ns HAVING count(*) > ?", most).Scan(ctx, &over); err != nil {
		return 0, Classify(err)
	}
	var n int64
	for _, o := range over {
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			// The revision of the last entry to go: the (excess)th oldest,
			// at most batch entries in.
			var cut int64
			if err := tx.NewRaw("SELECT revision FROM rolegate_change_ops WHERE ns = ? ORDER BY revision, seq LIMIT 1 OFFSET ?",
				o.NS, min(o.N-most, int64(batch))-1).Scan(ctx, &cut); err != nil {
				return err
			}
			res, err := tx.NewRaw("DELETE FROM rolegate_change_ops WHERE ns = ? AND revision <= ?", o.NS, cut).Exec(ctx)
			if err != nil {
				return err
			}
			k, _ := res.RowsAffected()
			n += k
			_, err = tx.NewRaw("UPDATE rolegate_revisions SET changes_floor = ? WHERE ns = ? AND changes_floor < ?", cut, o.NS, cut).Exec(ctx)
			return err
		})
		if err != nil {
			return n, Classify(err)
		}
	}
	return n, nil
}
