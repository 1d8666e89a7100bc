package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261127160000", "time bounds on memberships and grants", boundsUp, boundsDown)
}

// boundedTables are the tables whose rows may carry time bounds: global
// memberships, scoped memberships and grants. Existing rows get NULL in
// both columns: unbounded, as they were.
var boundedTables = []string{"rolegate_memberships", "rolegate_scoped_memberships", "rolegate_permissions"}

// boundsUp adds starts_at and expires_at (UTC, NULL for no bound) and, per
// table, a partial index of the rows that expire, which the expiry sweep
// reads across namespaces without touching the unbounded majority.
func boundsUp(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, t := range boundedTables {
			for _, q := range []string{
				"ALTER TABLE " + t + " ADD COLUMN starts_at TIMESTAMP",
				"ALTER TABLE " + t + " ADD COLUMN expires_at TIMESTAMP",
				"CREATE INDEX IF NOT EXISTS " + t + "_expiring ON " + t + " (expires_at) WHERE expires_at IS NOT NULL",
			} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func boundsDown(ctx context.Context, db *bun.DB) error {
	for _, t := range boundedTables {
		for _, q := range []string{
			"DROP INDEX IF EXISTS " + t + "_expiring",
			"ALTER TABLE " + t + " DROP COLUMN expires_at",
			"ALTER TABLE " + t + " DROP COLUMN starts_at",
		} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				return err
			}
		}
	}
	return nil
}

// TimeBounds is a membership's or a grant's time window: it holds from Starts
// (zero: since it was written) until Expires (zero: until removed). Times
// are stored in UTC to the microsecond.
type TimeBounds struct {
	Starts, Expires time.Time
}

// IsZero reports whether b bounds nothing.
func (b TimeBounds) IsZero() bool { return b.Starts.IsZero() && b.Expires.IsZero() }

// Normalized is b in UTC, to the microsecond the store keeps.
func (b TimeBounds) Normalized() TimeBounds {
	norm := func(t time.Time) time.Time {
		if t.IsZero() {
			return t
		}
		return t.UTC().Truncate(time.Microsecond)
	}
	return TimeBounds{Starts: norm(b.Starts), Expires: norm(b.Expires)}
}

// Equal reports whether a and b are the same window.
func (b TimeBounds) Equal(o TimeBounds) bool {
	return b.Starts.Equal(o.Starts) && b.Expires.Equal(o.Expires)
}

// HeldAt reports whether a row with bounds b counts at t:
// Starts <= t < Expires.
func (b TimeBounds) HeldAt(t time.Time) bool {
	return (b.Starts.IsZero() || !t.Before(b.Starts)) && (b.Expires.IsZero() || t.Before(b.Expires))
}

// Next is the first bound of b after t, when the row's standing changes
// (zero: never).
func (b TimeBounds) Next(t time.Time) time.Time {
	var next time.Time
	for _, at := range []time.Time{b.Starts, b.Expires} {
		if !at.IsZero() && at.After(t) {
			next = Earliest(next, at)
		}
	}
	return next
}

// Earliest is the earlier of two boundaries, zero meaning none.
func Earliest(a, b time.Time) time.Time {
	switch {
	case a.IsZero():
		return b
	case b.IsZero() || a.Before(b):
		return a
	}
	return b
}

// boundRow is the two bound columns as scanned.
type boundRow struct {
	StartsAt  bun.NullTime `bun:"starts_at"`
	ExpiresAt bun.NullTime `bun:"expires_at"`
}

func (r boundRow) bounds() TimeBounds {
	return TimeBounds{Starts: r.StartsAt.Time, Expires: r.ExpiresAt.Time}.Normalized()
}

// args are b as the two bound columns' values (NULL for a zero bound).
func (b TimeBounds) args() []any {
	b = b.Normalized()
	return []any{bun.NullTime{Time: b.Starts}, bun.NullTime{Time: b.Expires}}
}

// now is the time the scope's reads count bounds at.
func (s Scope) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// held is the condition that a row (of alias, "" for none) counts at the
// scope's now. The time is written into the text as bun writes a time
// argument (UTC, to the microsecond), so that the condition can join a
// query anywhere without moving its arguments.
func (s Scope) held(alias string) string {
	if alias != "" {
		alias += "."
	}
	at := "'" + s.now().UTC().Format(timeLiteral) + "'"
	return "(" + alias + "starts_at IS NULL OR " + alias + "starts_at <= " + at + ") AND (" +
		alias + "expires_at IS NULL OR " + alias + "expires_at > " + at + ")"
}

// timeLiteral is how bun writes a time into SQL on both dialects (see
// schema.BaseDialect.AppendTime), and so how bounds are stored: on SQLite
// as text that sorts as the times do.
const timeLiteral = "2006-01-02 15:04:05.999999-07:00"

// Put is what setting a membership or a grant did: Created when the row
// is new, Changed when it is new or its bounds changed.
type Put struct{ Created, Changed bool }
